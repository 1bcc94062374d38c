package main

import (
	"bytes"
	"encoding/json"

	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	apiextensionsfeatures "k8s.io/apiextensions-apiserver/pkg/features"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/openapi"
	explainv2 "k8s.io/kubectl/pkg/explain/v2"
)

type explainRequest struct {
	CRD       json.RawMessage `json:"crd"`
	Version   string          `json:"version"`
	Resource  string          `json:"resource"`
	Fields    []string        `json:"fields"`
	Recursive bool            `json:"recursive"`
	MaxDepth  int             `json:"maxDepth"`
}

// groupVersionDocument serves one group-version's OpenAPI v3 document.
type groupVersionDocument []byte

func (d groupVersionDocument) Schema(string) ([]byte, error) { return d, nil }
func (d groupVersionDocument) ServerRelativeURL() string     { return "" }

// oneDocumentClient is an openapi.Client that knows one group-version.
type oneDocumentClient struct {
	path string
	doc  groupVersionDocument
}

func (c oneDocumentClient) Paths() (map[string]openapi.GroupVersion, error) {
	return map[string]openapi.GroupVersion{c.path: c.doc}, nil
}

// opExplain: kubectl explain's plaintext output (k8s.io/kubectl
// pkg/explain/v2) for a field path of a CRD version's resource, from the
// document the OpenAPI v3 controller serves for the CRD's group-version
// (builder.BuildOpenAPIV3, paths included).
func opExplain(line []byte) (any, error) {
	r, err := decode[explainRequest](line)
	if err != nil {
		return nil, err
	}
	crd, err := v1CRD(r.CRD)
	if err != nil {
		return nil, err
	}
	selectable := utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CustomResourceFieldSelectors)
	doc, err := builder.BuildOpenAPIV3(crd, r.Version, builder.Options{V2: false, IncludeSelectableFields: selectable})
	if err != nil {
		return map[string]any{"buildError": err.Error()}, nil
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: r.Version, Resource: r.Resource}
	c := oneDocumentClient{path: "apis/" + gvr.Group + "/" + gvr.Version, doc: raw}
	return printExplain(c, gvr, r.Fields, r.Recursive, r.MaxDepth), nil
}

type explainDocumentRequest struct {
	Document  json.RawMessage `json:"document"`
	Group     string          `json:"group"`
	Version   string          `json:"version"`
	Resource  string          `json:"resource"`
	Fields    []string        `json:"fields"`
	Recursive bool            `json:"recursive"`
	MaxDepth  int             `json:"maxDepth"`
}

// opExplainDocument: kubectl explain's plaintext output for a resource of
// a group-version whose OpenAPI v3 document is given as it is.
func opExplainDocument(line []byte) (any, error) {
	r, err := decode[explainDocumentRequest](line)
	if err != nil {
		return nil, err
	}
	gvr := schema.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Resource}
	path := "apis/" + gvr.Group + "/" + gvr.Version
	if gvr.Group == "" {
		path = "api/" + gvr.Version
	}
	return printExplain(oneDocumentClient{path: path, doc: groupVersionDocument(r.Document)}, gvr, r.Fields, r.Recursive, r.MaxDepth), nil
}

// printExplain runs kubectl's explain (k8s.io/kubectl/pkg/explain/v2,
// template "plaintext") and answers what it wrote and its error.
func printExplain(c openapi.Client, gvr schema.GroupVersionResource, fields []string, recursive bool, maxDepth int) map[string]any {
	var out bytes.Buffer
	if err := explainv2.PrintModelDescription(fields, &out, c, gvr, recursive, maxDepth, "plaintext"); err != nil {
		return map[string]any{"output": out.String(), "error": err.Error()}
	}
	return map[string]any{"output": out.String()}
}
