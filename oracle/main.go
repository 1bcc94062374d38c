// Command oracle answers questions about structural schemas with the
// Kubernetes API server's own code (k8s.io/apiextensions-apiserver and the
// libraries it uses), so that schema-gen's answers can be compared with
// upstream's on the same input.
//
// Protocol: one JSON request per line on stdin, one JSON response per line
// on stdout, in order. Every request has an "op" (see ops); a response is
// either the operation's result or {"error": "..."} when the request itself
// is malformed or the operation fails outside its normal outputs. A panic
// in upstream code is reported as {"panic": "..."} and the process goes on.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// maxLine bounds one request (CRDs of the corpus are a few MiB at most).
const maxLine = 256 << 20

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	for {
		line, err := readLine(in)
		if len(line) > 0 {
			resp := handle(line)
			b, merr := json.Marshal(resp)
			if merr != nil {
				b, _ = json.Marshal(map[string]string{"error": "cannot encode response: " + merr.Error()})
			}
			out.Write(b)
			out.WriteByte('\n')
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(2)
		}
	}
}

func readLine(in *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := in.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("request longer than %d bytes", maxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, err
	}
}

// handle runs one request, turning panics into a response.
func handle(line []byte) (resp any) {
	defer func() {
		if p := recover(); p != nil {
			resp = map[string]string{"panic": fmt.Sprint(p)}
		}
	}()
	var head struct {
		Op string `json:"op"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return errorResponse(fmt.Errorf("bad request: %w", err))
	}
	op, ok := ops[head.Op]
	if !ok {
		return errorResponse(fmt.Errorf("unknown op %q", head.Op))
	}
	r, err := op(line)
	if err != nil {
		return errorResponse(err)
	}
	return r
}

func errorResponse(err error) map[string]string {
	return map[string]string{"error": err.Error()}
}

// ops maps an operation name to its handler; each handler decodes its own
// request from the raw line.
var ops = map[string]func([]byte) (any, error){
	"version":                 opVersion,
	"structural":              opStructural,
	"validate_crd_validation": opValidateCRDValidation,
	"validate_crd":            opValidateCRD,
	"prune":                   opPrune,
	"default":                 opDefault,
	"validate_value":          opValidateValue,
	"list_sets_maps":          opListSetsAndMaps,
	"to_structural_v2":        opToStructuralV2,
	"unfold":                  opUnfold,
	"build_openapi":           opBuildOpenAPI,
	"publish":                 opPublish,
	"cel_compile":             opCELCompile,
	"admit":                   opAdmit,
	"explain":                 opExplain,
	"explain_document":        opExplainDocument,
}
