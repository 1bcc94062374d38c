package main

import (
	"encoding/json"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	v2 "k8s.io/apiextensions-apiserver/pkg/controller/openapi/v2"
	apiextensionsfeatures "k8s.io/apiextensions-apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kube-openapi/pkg/handler"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

type schemaRequest struct {
	Schema json.RawMessage `json:"schema"`
}

// opToStructuralV2: NewStructural, ToStructuralOpenAPIV2, ToKubeOpenAPI.
func opToStructuralV2(line []byte) (any, error) {
	r, err := decode[schemaRequest](line)
	if err != nil {
		return nil, err
	}
	s, err := structural(r.Schema)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	doc, err := rawJSON(v2.ToStructuralOpenAPIV2(s).ToKubeOpenAPI())
	return map[string]any{"schema": doc}, err
}

// opUnfold: NewStructural, Unfold, ToKubeOpenAPI.
func opUnfold(line []byte) (any, error) {
	r, err := decode[schemaRequest](line)
	if err != nil {
		return nil, err
	}
	s, err := structural(r.Schema)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	doc, err := rawJSON(s.Unfold().ToKubeOpenAPI())
	return map[string]any{"schema": doc}, err
}

type buildRequest struct {
	CRD     json.RawMessage `json:"crd"`
	Version string          `json:"version"`
	Options builder.Options `json:"options"`
}

// opBuildOpenAPI: builder.BuildOpenAPIV2 (options.V2) or BuildOpenAPIV3 of
// one CRD version; the whole document.
func opBuildOpenAPI(line []byte) (any, error) {
	r, err := decode[buildRequest](line)
	if err != nil {
		return nil, err
	}
	crd, err := v1CRD(r.CRD)
	if err != nil {
		return nil, err
	}
	if crd == nil {
		return nil, fmt.Errorf("no crd")
	}
	var doc any
	if r.Options.V2 {
		doc, err = builder.BuildOpenAPIV2(crd, r.Version, r.Options)
	} else {
		doc, err = builder.BuildOpenAPIV3(crd, r.Version, r.Options)
	}
	if err != nil {
		return map[string]any{"buildError": err.Error()}, nil
	}
	out, err := rawJSON(doc)
	return map[string]any{"document": out}, err
}

type publishRequest struct {
	CRD json.RawMessage `json:"crd"`
	V2  bool            `json:"v2"`
}

// opPublish: what the OpenAPI controllers publish for a CRD. v2: the
// served versions' BuildOpenAPIV2 documents with defaults pruned, merged;
// v3: BuildOpenAPIV3 of every served version, keyed apis/<group>/<version>.
func opPublish(line []byte) (any, error) {
	r, err := decode[publishRequest](line)
	if err != nil {
		return nil, err
	}
	crd, err := v1CRD(r.CRD)
	if err != nil {
		return nil, err
	}
	if crd == nil {
		return nil, fmt.Errorf("no crd")
	}
	selectable := utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CustomResourceFieldSelectors)
	if r.V2 {
		merged := &spec.Swagger{}
		for _, v := range crd.Spec.Versions {
			if !v.Served {
				continue
			}
			s, err := builder.BuildOpenAPIV2(crd, v.Name, builder.Options{V2: true, IncludeSelectableFields: selectable})
			if err != nil {
				return map[string]any{"buildError": err.Error()}, nil
			}
			s.Definitions = handler.PruneDefaults(s.Definitions)
			if merged, err = builder.MergeSpecs(merged, s); err != nil {
				return map[string]any{"buildError": err.Error()}, nil
			}
		}
		out, err := rawJSON(merged)
		return map[string]any{"document": out}, err
	}
	docs := map[string]json.RawMessage{}
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{V2: false, IncludeSelectableFields: selectable})
		if err != nil {
			return map[string]any{"buildError": err.Error()}, nil
		}
		if docs["apis/"+crd.Spec.Group+"/"+v.Name], err = rawJSON(s); err != nil {
			return nil, err
		}
	}
	return map[string]any{"documents": docs}, nil
}
