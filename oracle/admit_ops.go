package main

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

type admitRequest struct {
	CRD       json.RawMessage `json:"crd"`
	Version   string          `json:"version"`
	Object    json.RawMessage `json:"object"`
	OldObject json.RawMessage `json:"oldObject"`
	Namespace string          `json:"namespace"`
}

// resource is what the custom resource handler builds for one CRD version.
type resource struct {
	gvk        schema.GroupVersionKind
	namespaced bool
	preserve   bool
	structural *structuralschema.Structural
	strategy   interface {
		rest.RESTCreateStrategy
		rest.RESTUpdateStrategy
	}
}

func newResource(crd *apiextensionsv1.CustomResourceDefinition, version string) (*resource, error) {
	var v *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version {
			v = &crd.Spec.Versions[i]
		}
	}
	if v == nil {
		return nil, fmt.Errorf("no version %q", version)
	}
	validation, err := apihelpers.GetSchemaForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	var props *apiextensions.JSONSchemaProps
	if validation != nil {
		internal := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validation, internal, nil); err != nil {
			return nil, err
		}
		props = internal.OpenAPIV3Schema
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(props)
	if err != nil {
		return nil, err
	}
	var s *structuralschema.Structural
	if props != nil {
		if s, err = structuralschema.NewStructural(props); err != nil {
			return nil, err
		}
	}
	subresources, err := apihelpers.GetSubresourcesForVersion(crd, version)
	if err != nil {
		return nil, err
	}
	var status *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	var scale *apiextensions.CustomResourceSubresourceScale
	if subresources != nil && subresources.Status != nil {
		status = &apiextensions.CustomResourceSubresourceStatus{}
		if props != nil && props.Properties != nil {
			if st, ok := props.Properties["status"]; ok {
				if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&st); err != nil {
					return nil, err
				}
			}
		}
	}
	if subresources != nil && subresources.Scale != nil {
		scale = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(subresources.Scale, scale, nil); err != nil {
			return nil, err
		}
	}
	gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	strategy := customresource.NewStrategy(scheme, namespaced, gvk, validator, statusValidator, s, status, scale, v.SelectableFields)
	return &resource{gvk: gvk, namespaced: namespaced, preserve: crd.Spec.PreserveUnknownFields, structural: s, strategy: strategy}, nil
}

// decode is the handler's decoding of a request body or a stored object:
// the schema coercer (metadata kept aside, pruning, non-nullable nulls,
// metadata coercion) and then defaulting. Returns the pruned paths.
func (r *resource) decode(u *unstructured.Unstructured, stored bool) ([]string, error) {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return nil, err
	}
	meta, foundMeta, unknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{DropMalformedFields: stored, ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == r.gvk.Group && kind == r.gvk.Kind {
		if !r.preserve {
			unknown = append(unknown, structuralpruning.PruneWithOptions(u.Object, r.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
			structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, r.structural)
		}
		err, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, r.structural, false, schemaobjectmeta.CoerceOptions{DropInvalidFields: stored, ReturnUnknownFieldPaths: true})
		if err != nil {
			return nil, err
		}
		unknown = append(unknown, paths...)
		if stored && meta.Generation == 0 {
			meta.Generation = 1
		}
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(u.Object, meta); err != nil {
			return nil, err
		}
	}
	if u.GroupVersionKind().GroupKind() == r.gvk.GroupKind() {
		structuraldefaulting.Default(u.Object, r.structural)
	}
	return unknown, nil
}

// opAdmit: a create (or, with oldObject, an update) of a custom resource
// as the handler and the registry run it: decoding, PrepareForCreate or
// (after BeforeUpdate carries the old generation over) PrepareForUpdate, then ValidateCreate or ValidateUpdate (the strategy's
// validation, CEL included, and the generic metadata checks) and the
// strategy's warnings.
func opAdmit(line []byte) (any, error) {
	req, err := decode[admitRequest](line)
	if err != nil {
		return nil, err
	}
	crd, err := v1CRD(req.CRD)
	if err != nil {
		return nil, err
	}
	if crd == nil {
		return nil, fmt.Errorf("no crd")
	}
	r, err := newResource(crd, req.Version)
	if err != nil {
		return map[string]any{"resourceError": err.Error()}, nil
	}
	obj, err := object(req.Object)
	if err != nil {
		return nil, err
	}
	m, ok := obj.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("object is not a JSON object")
	}
	u := &unstructured.Unstructured{Object: m}
	pruned, err := r.decode(u, false)
	if err != nil {
		return map[string]any{"decodeError": err.Error()}, nil
	}
	ctx := genericapirequest.WithNamespace(context.Background(), req.Namespace)
	var errs field.ErrorList
	var warnings []string
	if len(req.OldObject) == 0 || isNull(req.OldObject) {
		// The create handler: the request's namespace (none for a
		// cluster-scoped resource).
		if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(req.Namespace, r.namespaced), u); err != nil {
			return map[string]any{"decodeError": err.Error()}, nil
		}
		r.strategy.PrepareForCreate(ctx, u)
		errs = rest.ValidateCreate(ctx, u, r.strategy)
		warnings = r.strategy.WarningsOnCreate(ctx, u)
	} else {
		oldObj, err := object(req.OldObject)
		if err != nil {
			return nil, err
		}
		om, ok := oldObj.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("oldObject is not a JSON object")
		}
		old := &unstructured.Unstructured{Object: om}
		if _, err := r.decode(old, true); err != nil {
			return map[string]any{"decodeError": "old object: " + err.Error()}, nil
		}
		// rest.BeforeUpdate: the request's namespace, the old generation
		// (until PrepareForUpdate moves it), then what the new object
		// cannot set itself.
		if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(req.Namespace, r.namespaced), u); err != nil {
			return map[string]any{"decodeError": err.Error()}, nil
		}
		u.SetGeneration(old.GetGeneration())
		r.strategy.PrepareForUpdate(ctx, u, old)
		if len(u.GetUID()) == 0 {
			u.SetUID(old.GetUID())
		}
		if t := old.GetCreationTimestamp(); !t.IsZero() {
			u.SetCreationTimestamp(t)
		}
		if t := old.GetDeletionTimestamp(); t != nil && !t.IsZero() {
			u.SetDeletionTimestamp(t)
		}
		if g := old.GetDeletionGracePeriodSeconds(); g != nil && u.GetDeletionGracePeriodSeconds() == nil {
			u.SetDeletionGracePeriodSeconds(g)
		}
		errs = rest.ValidateUpdate(ctx, u, old, r.strategy)
		warnings = r.strategy.WarningsOnUpdate(ctx, u, old)
	}
	if pruned == nil {
		pruned = []string{}
	}
	if warnings == nil {
		warnings = []string{}
	}
	return map[string]any{"object": u.Object, "pruned": pruned, "errors": fieldErrors(errs), "warnings": warnings}, nil
}
