package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// scheme converts between the v1 and internal apiextensions types, as the
// API server's codec does.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// v1Schema decodes a v1 JSONSchemaProps; nil for null or absent.
func v1Schema(raw json.RawMessage) (*apiextensionsv1.JSONSchemaProps, error) {
	if isNull(raw) {
		return nil, nil
	}
	var s apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return &s, nil
}

// internalSchema decodes a v1 JSONSchemaProps and converts it to the
// internal type the validation and structural code reads; nil for null.
func internalSchema(raw json.RawMessage) (*apiextensions.JSONSchemaProps, error) {
	in, err := v1Schema(raw)
	if in == nil || err != nil {
		return nil, err
	}
	var out apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(in, &out, nil); err != nil {
		return nil, fmt.Errorf("schema conversion: %w", err)
	}
	return &out, nil
}

// structural is NewStructural of a schema, without ValidateStructural (as
// upstream builds the structurals of its pruning and defaulting tests);
// nil for a null schema.
func structural(raw json.RawMessage) (*structuralschema.Structural, error) {
	props, err := internalSchema(raw)
	if props == nil || err != nil {
		return nil, err
	}
	return structuralschema.NewStructural(props)
}

// codecs decodes CRDs of any served apiextensions version.
var codecs = serializer.NewCodecFactory(scheme)

// decodeCRD decodes a CustomResourceDefinition (v1 or v1beta1) with the
// defaults the API server's decoder applies; nil for null.
func decodeCRD(raw json.RawMessage) (runtime.Object, error) {
	if isNull(raw) {
		return nil, nil
	}
	obj, _, err := codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("crd: %w", err)
	}
	scheme.Default(obj)
	return obj, nil
}

// internalCRD is decodeCRD converted to the internal type validation reads
// (the server's conversion from the request's version).
func internalCRD(raw json.RawMessage) (*apiextensions.CustomResourceDefinition, error) {
	obj, err := decodeCRD(raw)
	if obj == nil || err != nil {
		return nil, err
	}
	var out apiextensions.CustomResourceDefinition
	if err := scheme.Convert(obj, &out, nil); err != nil {
		return nil, fmt.Errorf("crd conversion: %w", err)
	}
	return &out, nil
}

// v1CRD is a CRD as the v1 type the serving and publishing code reads
// (a v1beta1 CRD goes through the internal version, as stored).
func v1CRD(raw json.RawMessage) (*apiextensionsv1.CustomResourceDefinition, error) {
	obj, err := decodeCRD(raw)
	if obj == nil || err != nil {
		return nil, err
	}
	if crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition); ok {
		return crd, nil
	}
	internal, err := internalCRD(raw)
	if err != nil {
		return nil, err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := scheme.Convert(internal, &crd, nil); err != nil {
		return nil, fmt.Errorf("crd conversion: %w", err)
	}
	return &crd, nil
}

// object decodes a JSON value as the API server's unstructured decoder
// does: integers as int64, other numbers as float64. Absent is nil.
func object(raw json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	var v any
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("object: %w", err)
	}
	return v, nil
}

// fieldPath parses a field path as field.Path prints it
// (`spec.versions[1].schema`, `metadata.labels[app]`); "" is the nil path.
func fieldPath(s string) *field.Path {
	var p *field.Path
	child := func(name string) {
		if p == nil {
			p = field.NewPath(name)
		} else {
			p = p.Child(name)
		}
	}
	for s != "" {
		end := strings.IndexAny(s, ".[")
		if end < 0 {
			child(s)
			break
		}
		if end > 0 {
			child(s[:end])
		}
		if s[end] == '.' {
			s = s[end+1:]
			continue
		}
		close := strings.IndexByte(s[end:], ']')
		if close < 0 {
			child(s[end:])
			break
		}
		sub := s[end+1 : end+close]
		if i, err := strconv.Atoi(sub); err == nil {
			p = p.Index(i)
		} else {
			p = p.Key(sub)
		}
		s = strings.TrimPrefix(s[end+close+1:], ".")
	}
	return p
}

// fieldError is one field.Error as the responses carry it.
type fieldError struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

func fieldErrors(errs field.ErrorList) []fieldError {
	out := make([]fieldError, 0, len(errs))
	for _, e := range errs {
		out = append(out, fieldError{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()})
	}
	return out
}

// decode reads a request into its struct.
func decode[T any](line []byte) (*T, error) {
	var r T
	if err := json.Unmarshal(line, &r); err != nil {
		return nil, fmt.Errorf("bad request: %w", err)
	}
	return &r, nil
}

// rawJSON marshals a value for a response as it is.
func rawJSON(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	return json.RawMessage(b), err
}
