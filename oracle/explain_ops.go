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
	selectable := utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CustomResourceFieldSelectors)
	built := builtDocuments.get(r.CRD, r.Version, selectable)
	if built.err != nil {
		return nil, built.err
	}
	if built.buildError != "" {
		return map[string]any{"buildError": built.buildError}, nil
	}
	gvr := schema.GroupVersionResource{Group: built.group, Version: r.Version, Resource: r.Resource}
	c := oneDocumentClient{path: "apis/" + gvr.Group + "/" + gvr.Version, doc: built.document}
	return printExplain(c, gvr, r.Fields, r.Recursive, r.MaxDepth), nil
}

// builtDocument is what opExplain needs of a CRD version before kubectl
// reads it: the CRD's group and the group-version's OpenAPI v3 document
// as served, or why there is none.
type builtDocument struct {
	group      string
	document   groupVersionDocument
	buildError string // BuildOpenAPIV3's error, answered as buildError
	err        error  // the CRD does not decode
}

// buildDocument decodes a CRD and builds the OpenAPI v3 document of one
// of its versions.
func buildDocument(raw json.RawMessage, version string, selectable bool) builtDocument {
	crd, err := v1CRD(raw)
	if err != nil {
		return builtDocument{err: err}
	}
	doc, err := builder.BuildOpenAPIV3(crd, version, builder.Options{V2: false, IncludeSelectableFields: selectable})
	if err != nil {
		return builtDocument{group: crd.Spec.Group, buildError: err.Error()}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return builtDocument{err: err}
	}
	return builtDocument{group: crd.Spec.Group, document: b}
}

// builtDocuments keeps the documents of the last few CRD versions asked
// about: the tests ask many questions about one version in a row, and
// building its document is a pure function of the request's bytes.
var builtDocuments = documentCache{size: 4}

// documentCache holds the newest builtDocuments, keyed by the exact bytes
// of the CRD, the version and the field-selector gate.
type documentCache struct {
	size    int
	entries []documentEntry // the most recently used first
}

type documentEntry struct {
	crd        []byte
	version    string
	selectable bool
	built      builtDocument
}

// get answers buildDocument's result for these inputs, building it only
// when none of the kept entries has exactly these bytes.
func (c *documentCache) get(raw json.RawMessage, version string, selectable bool) builtDocument {
	for i, e := range c.entries {
		if e.version == version && e.selectable == selectable && bytes.Equal(e.crd, raw) {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.built
		}
	}
	e := documentEntry{crd: bytes.Clone(raw), version: version, selectable: selectable, built: buildDocument(raw, version, selectable)}
	if len(c.entries) < c.size {
		c.entries = append(c.entries, documentEntry{})
	}
	copy(c.entries[1:], c.entries[:len(c.entries)-1])
	c.entries[0] = e
	return e.built
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
