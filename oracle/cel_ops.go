package main

import (
	"encoding/json"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type celCompileRequest struct {
	Schema               json.RawMessage `json:"schema"`
	IsResourceRoot       bool            `json:"isResourceRoot"`
	CompatibilityVersion string          `json:"compatibilityVersion"`
}

type celRuleResult struct {
	Rule                     string `json:"rule"`
	Error                    string `json:"error,omitempty"`
	MaxCost                  uint64 `json:"maxCost"`
	MaxCardinality           uint64 `json:"maxCardinality"`
	UsesOldSelf              bool   `json:"usesOldSelf"`
	MessageExpressionError   string `json:"messageExpressionError,omitempty"`
	MessageExpressionMaxCost uint64 `json:"messageExpressionMaxCost"`
}

// opCELCompile: cel.Compile of the root node's x-kubernetes-validations
// with the declared type the CRD validation gives it, as upstream's
// TestCelCompilation and TestCostEstimation call it.
func opCELCompile(line []byte) (any, error) {
	r, err := decode[celCompileRequest](line)
	if err != nil {
		return nil, err
	}
	props, err := internalSchema(r.Schema)
	if err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(props)
	if err != nil {
		return map[string]any{"newStructuralError": err.Error()}, nil
	}
	compat := environment.DefaultCompatibilityVersion()
	if r.CompatibilityVersion != "" {
		if compat, err = version.Parse(r.CompatibilityVersion); err != nil {
			return nil, err
		}
	}
	envSet := environment.MustBaseEnvSet(compat)
	results, err := cel.Compile(s, model.SchemaDeclType(s, r.IsResourceRoot), celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
	if err != nil {
		return map[string]any{"compileError": err.Error()}, nil
	}
	out := make([]celRuleResult, 0, len(results))
	for i, res := range results {
		rr := celRuleResult{
			Rule:                     s.XValidations[i].Rule,
			MaxCost:                  res.MaxCost,
			MaxCardinality:           res.MaxCardinality,
			UsesOldSelf:              res.UsesOldSelf,
			MessageExpressionMaxCost: res.MessageExpressionMaxCost,
		}
		if res.Error != nil {
			rr.Error = res.Error.Detail
		}
		if res.MessageExpressionError != nil {
			rr.MessageExpressionError = res.MessageExpressionError.Detail
		}
		out = append(out, rr)
	}
	return map[string]any{"rules": out}, nil
}
