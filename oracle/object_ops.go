package main

import (
	"context"
	"encoding/json"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
	"k8s.io/apiserver/pkg/cel/environment"
)

type pruneRequest struct {
	Schema                 json.RawMessage `json:"schema"`
	Object                 json.RawMessage `json:"object"`
	IsResourceRoot         bool            `json:"isResourceRoot"`
	TrackUnknownFieldPaths bool            `json:"trackUnknownFieldPaths"`
}

// opPrune: pruning.PruneWithOptions; the object as left and the pruned paths.
func opPrune(line []byte) (any, error) {
	r, err := decode[pruneRequest](line)
	if err != nil {
		return nil, err
	}
	s, err := structural(r.Schema)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	obj, err := object(r.Object)
	if err != nil {
		return nil, err
	}
	pruned := pruning.PruneWithOptions(obj, s, r.IsResourceRoot, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: r.TrackUnknownFieldPaths})
	if pruned == nil {
		pruned = []string{}
	}
	return map[string]any{"object": obj, "pruned": pruned}, nil
}

type defaultRequest struct {
	Schema    json.RawMessage `json:"schema"`
	Object    json.RawMessage `json:"object"`
	Operation string          `json:"operation"`
}

// opDefault: defaulting.Default, or PruneNonNullableNullsWithoutDefaults.
func opDefault(line []byte) (any, error) {
	r, err := decode[defaultRequest](line)
	if err != nil {
		return nil, err
	}
	s, err := structural(r.Schema)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	obj, err := object(r.Object)
	if err != nil {
		return nil, err
	}
	if r.Operation == "PruneNonNullableNullsWithoutDefaults" {
		defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	} else {
		defaulting.Default(obj, s)
	}
	return map[string]any{"object": obj}, nil
}

type validateValueRequest struct {
	Schema               json.RawMessage `json:"schema"`
	Object               json.RawMessage `json:"object"`
	OldObject            json.RawMessage `json:"oldObject"`
	RootPath             string          `json:"rootPath"`
	CompatibilityVersion string          `json:"compatibilityVersion"`
	IsResourceRoot       bool            `json:"isResourceRoot"`
	Ratcheting           bool            `json:"ratcheting"`
}

// opValidateValue: the OpenAPI value validation (ValidateCustomResource, or
// ValidateCustomResourceUpdate with ratcheting) and the CEL validator with
// the full runtime budget, as upstream's validation tests run them.
func opValidateValue(line []byte) (any, error) {
	r, err := decode[validateValueRequest](line)
	if err != nil {
		return nil, err
	}
	props, err := internalSchema(r.Schema)
	if err != nil {
		return nil, err
	}
	compat := environment.DefaultCompatibilityVersion()
	if r.CompatibilityVersion != "" {
		if compat, err = version.Parse(r.CompatibilityVersion); err != nil {
			return nil, err
		}
	}
	validator, _, err := apiservervalidation.NewSchemaValidatorForVersion(props, compat)
	if err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(props)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	obj, err := object(r.Object)
	if err != nil {
		return nil, err
	}
	old, err := object(r.OldObject)
	if err != nil {
		return nil, err
	}
	root := fieldPath(r.RootPath)
	var schemaErrs field.ErrorList
	var celOpts []cel.Option
	if r.Ratcheting && old != nil {
		correlation := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: s})
		schemaErrs = apiservervalidation.ValidateCustomResourceUpdate(root, obj, old, validator, apiservervalidation.WithRatcheting(correlation))
		celOpts = append(celOpts, cel.WithRatcheting(correlation))
	} else {
		schemaErrs = apiservervalidation.ValidateCustomResource(root, obj, validator)
	}
	celErrs, remaining := cel.NewValidator(s, r.IsResourceRoot, celconfig.PerCallLimit).
		Validate(context.Background(), root, s, obj, old, celconfig.RuntimeCELCostBudget, celOpts...)
	return map[string]any{
		"errors":          fieldErrors(schemaErrs),
		"celErrors":       fieldErrors(celErrs),
		"remainingBudget": remaining,
	}, nil
}
