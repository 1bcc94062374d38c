package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime/debug"
	_ "unsafe" // go:linkname

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/apiserver/pkg/cel/environment"
)

// opVersion names the upstream modules linked in.
func opVersion([]byte) (any, error) {
	mods := map[string]string{}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			mods[d.Path] = d.Version
		}
	}
	return map[string]any{"modules": mods}, nil
}

// validateStructuralCompleteness is upstream's unexported check of
// pkg/apiserver/schema/complete.go, which its tests call directly.
//
//go:linkname validateStructuralCompleteness k8s.io/apiextensions-apiserver/pkg/apiserver/schema.validateStructuralCompleteness
func validateStructuralCompleteness(s *structuralschema.Structural, fldPath *field.Path, opts structuralschema.ValidationOptions) field.ErrorList

type structuralRequest struct {
	Schema    json.RawMessage `json:"schema"`
	Operation string          `json:"operation"`
	Options   struct {
		AllowNestedAdditionalProperties                   bool `json:"AllowNestedAdditionalProperties"`
		AllowNestedXValidations                           bool `json:"AllowNestedXValidations"`
		AllowValidationPropertiesWithAdditionalProperties bool `json:"AllowValidationPropertiesWithAdditionalProperties"`
	} `json:"options"`
}

// opStructural: NewStructural, then ValidateStructural (or, for operation
// "validateStructuralCompleteness", that check with the options).
func opStructural(line []byte) (any, error) {
	r, err := decode[structuralRequest](line)
	if err != nil {
		return nil, err
	}
	props, err := internalSchema(r.Schema)
	if err != nil {
		return nil, err
	}
	if props == nil {
		props = &apiextensions.JSONSchemaProps{}
	}
	s, err := structuralschema.NewStructural(props)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	var errs field.ErrorList
	if r.Operation == "validateStructuralCompleteness" {
		errs = validateStructuralCompleteness(s, nil, structuralschema.ValidationOptions{
			AllowNestedAdditionalProperties:                   r.Options.AllowNestedAdditionalProperties,
			AllowNestedXValidations:                           r.Options.AllowNestedXValidations,
			AllowValidationPropertiesWithAdditionalProperties: r.Options.AllowValidationPropertiesWithAdditionalProperties,
		})
	} else {
		errs = structuralschema.ValidateStructural(nil, s)
	}
	return map[string]any{"errors": fieldErrors(errs)}, nil
}

// validationOptions has the layout of upstream's unexported options struct
// of pkg/apis/apiextensions/validation; checkValidationOptionsLayout
// proves it against the real type before any call.
type validationOptions struct {
	allowDefaults                            bool
	disallowDefaultsReason                   string
	requireRecognizedConversionReviewVersion bool
	requireImmutableNames                    bool
	requireOpenAPISchema                     bool
	requireValidPropertyType                 bool
	requireStructuralSchema                  bool
	requirePrunedDefaults                    bool
	requireAtomicSetType                     bool
	requireMapListKeysMapSetValidation       bool
	preexistingExpressions                   struct {
		rules              sets.Set[string]
		messageExpressions sets.Set[string]
	}
	versionsWithUnchangedSchemas sets.Set[string]
	suppressPerExpressionCost    bool
	celEnvironmentSet            *environment.EnvSet
	allowInvalidCABundle         bool
	allowTooManySelectableFields map[string]bool
}

// checkValidationOptionsLayout compares validationOptions, field by
// field (name, type, offset), with the type upstream's exported
// ValidateCustomResourceSelectableFields takes.
func checkValidationOptionsLayout() error {
	real := reflect.TypeOf(crdvalidation.ValidateCustomResourceSelectableFields).In(3)
	mine := reflect.TypeOf(validationOptions{})
	if real.NumField() != mine.NumField() || real.Size() != mine.Size() {
		return fmt.Errorf("upstream validationOptions has %d fields (%d bytes), the mirror %d (%d bytes)", real.NumField(), real.Size(), mine.NumField(), mine.Size())
	}
	for i := 0; i < real.NumField(); i++ {
		a, b := real.Field(i), mine.Field(i)
		if a.Name != b.Name || a.Offset != b.Offset || a.Type.Size() != b.Type.Size() || a.Type.Kind() != b.Type.Kind() {
			return fmt.Errorf("validationOptions field %d: upstream %s %s at %d, mirror %s %s at %d", i, a.Name, a.Type, a.Offset, b.Name, b.Type, b.Offset)
		}
	}
	return nil
}

//go:linkname validateCustomResourceDefinitionValidation k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation.validateCustomResourceDefinitionValidation
func validateCustomResourceDefinitionValidation(ctx context.Context, v *apiextensions.CustomResourceValidation, statusSubresourceEnabled bool, opts validationOptions, fldPath *field.Path) field.ErrorList

type crdValidationRequest struct {
	Schema        json.RawMessage `json:"schema"`
	FieldPath     string          `json:"fieldPath"`
	StatusEnabled bool            `json:"statusEnabled"`
	Options       struct {
		AllowDefaults                      bool   `json:"allowDefaults"`
		RequireStructuralSchema            bool   `json:"requireStructuralSchema"`
		RequireValidPropertyType           bool   `json:"requireValidPropertyType"`
		RequirePrunedDefaults              bool   `json:"requirePrunedDefaults"`
		RequireAtomicSetType               bool   `json:"requireAtomicSetType"`
		RequireMapListKeysMapSetValidation bool   `json:"requireMapListKeysMapSetValidation"`
		CelCompatibilityVersion            string `json:"celCompatibilityVersion"`
	} `json:"options"`
}

// opValidateCRDValidation: upstream's validateCustomResourceDefinitionValidation
// with the given options, as its table test calls it.
func opValidateCRDValidation(line []byte) (any, error) {
	if err := checkValidationOptionsLayout(); err != nil {
		return nil, err
	}
	r, err := decode[crdValidationRequest](line)
	if err != nil {
		return nil, err
	}
	props, err := internalSchema(r.Schema)
	if err != nil {
		return nil, err
	}
	compat := environment.DefaultCompatibilityVersion()
	if v := r.Options.CelCompatibilityVersion; v != "" {
		if compat, err = version.Parse(v); err != nil {
			return nil, err
		}
	}
	o := r.Options
	opts := validationOptions{
		allowDefaults:                      o.AllowDefaults,
		requireStructuralSchema:            o.RequireStructuralSchema,
		requireValidPropertyType:           o.RequireValidPropertyType,
		requirePrunedDefaults:              o.RequirePrunedDefaults,
		requireAtomicSetType:               o.RequireAtomicSetType,
		requireMapListKeysMapSetValidation: o.RequireMapListKeysMapSetValidation,
		celEnvironmentSet:                  environment.MustBaseEnvSet(compat),
	}
	var v *apiextensions.CustomResourceValidation
	if props != nil {
		v = &apiextensions.CustomResourceValidation{OpenAPIV3Schema: props}
	} else {
		v = &apiextensions.CustomResourceValidation{}
	}
	errs := validateCustomResourceDefinitionValidation(context.Background(), v, r.StatusEnabled, opts, fieldPath(r.FieldPath))
	return map[string]any{"errors": fieldErrors(errs)}, nil
}

type crdRequest struct {
	CRD    json.RawMessage `json:"crd"`
	OldCRD json.RawMessage `json:"oldCrd"`
}

// opValidateCRD: ValidateCustomResourceDefinition on create, or
// ValidateCustomResourceDefinitionUpdate when oldCrd is given, after the
// decoder's defaulting and the conversion to the internal version.
func opValidateCRD(line []byte) (any, error) {
	r, err := decode[crdRequest](line)
	if err != nil {
		return nil, err
	}
	crd, err := internalCRD(r.CRD)
	if err != nil {
		return nil, err
	}
	if crd == nil {
		return nil, fmt.Errorf("no crd")
	}
	old, err := internalCRD(r.OldCRD)
	if err != nil {
		return nil, err
	}
	var errs field.ErrorList
	if old == nil {
		errs = crdvalidation.ValidateCustomResourceDefinition(context.Background(), crd)
	} else {
		errs = crdvalidation.ValidateCustomResourceDefinitionUpdate(context.Background(), crd, old)
	}
	return map[string]any{"errors": fieldErrors(errs)}, nil
}

type listSetsRequest struct {
	Schema   json.RawMessage `json:"schema"`
	Object   json.RawMessage `json:"object"`
	RootPath string          `json:"rootPath"`
}

// opListSetsAndMaps: listtype.ValidateListSetsAndMaps.
func opListSetsAndMaps(line []byte) (any, error) {
	r, err := decode[listSetsRequest](line)
	if err != nil {
		return nil, err
	}
	s, err := structural(r.Schema)
	if err != nil {
		return nil, err
	}
	obj, err := object(r.Object)
	if err != nil {
		return nil, err
	}
	m, _ := obj.(map[string]any)
	errs := listtype.ValidateListSetsAndMaps(fieldPath(r.RootPath), s, m)
	return map[string]any{"errors": fieldErrors(errs)}, nil
}
