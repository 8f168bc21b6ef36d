package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"sdp/compat"
	"sdp/schema"
)

// The code action "compare with the last commit": `sdp compat` between the
// file as committed at git HEAD and the text in the editor. Its findings
// are shown as a message and as diagnostics (information for notes,
// warnings for wire changes) until the next change of the text.

const compatCommand = "sdp.compat"

type codeActionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type command struct {
	Title     string        `json:"title"`
	Command   string        `json:"command"`
	Arguments []interface{} `json:"arguments,omitempty"`
}

type codeAction struct {
	Title   string   `json:"title"`
	Kind    string   `json:"kind"`
	Command *command `json:"command"`
}

func (s *Server) codeAction(params json.RawMessage) (interface{}, error) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if d.a.Schema == nil || d.path == d.uri {
		return []codeAction{}, nil // needs a valid schema in a file
	}
	title := "Compare with the last commit (sdp compat)"
	return []codeAction{{Title: title, Kind: "source", Command: &command{Title: title, Command: compatCommand, Arguments: []interface{}{d.uri}}}}, nil
}

func (s *Server) executeCommand(params json.RawMessage) (interface{}, error) {
	var p struct {
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Command != compatCommand || len(p.Arguments) != 1 {
		return nil, &rpcError{codeInvalidParams, "unknown command " + p.Command}
	}
	var uri string
	if err := json.Unmarshal(p.Arguments[0], &uri); err != nil {
		return nil, &rpcError{codeInvalidParams, "sdp.compat takes the document's URI"}
	}
	d, err := s.doc(uri)
	if err != nil {
		return nil, err
	}
	if d.a.Schema == nil {
		return nil, &rpcError{codeRequestFailed, "fix the schema's errors first"}
	}
	old, err := committed(d.path)
	if err != nil {
		s.showMessage(1, "sdp compat: "+err.Error())
		return nil, &rpcError{codeRequestFailed, err.Error()}
	}
	oldName := d.path + "@HEAD"
	oldSchema, err := schema.Parse(oldName, old)
	if err != nil {
		msg := "the committed version does not load: " + strings.SplitN(err.Error(), "\n", 2)[0]
		s.showMessage(1, "sdp compat: "+msg)
		return nil, &rpcError{codeRequestFailed, msg}
	}
	r, err := compat.Compare(oldSchema, d.a.Schema, nil)
	if err != nil {
		return nil, &rpcError{codeRequestFailed, err.Error()}
	}
	var changed []string
	var lines []string
	d.compat = nil
	for _, t := range r.Types {
		if t.Status == "changed" {
			changed = append(changed, t.Name)
		}
		for _, c := range t.Changes {
			sev := 3 // information: not a wire change
			if c.Breaking {
				sev = 2
			}
			lines = append(lines, fmt.Sprintf("%s: %s", t.Name, c.Message))
			if c.New.Line > 0 {
				d.compat = append(d.compat, diagnostic{Range: d.tokenRange(c.New), Severity: sev, Source: "sdp compat",
					Message: t.Name + ": " + c.Message})
			}
		}
	}
	summary := "sdp compat: every type has the wire shape it has at HEAD"
	typ := 3
	if len(changed) > 0 {
		what := fmt.Sprintf("%d types changed their", len(changed))
		if len(changed) == 1 {
			what = "1 type changed its"
		}
		summary = fmt.Sprintf("sdp compat: %s wire shape since HEAD (%s)", what, strings.Join(changed, ", "))
		typ = 2
	}
	if len(lines) > 0 {
		summary += "\n" + strings.Join(lines, "\n")
	}
	s.showMessage(typ, summary)
	s.publish(d)
	return r, nil
}

// committed is the file as committed at HEAD of its git repository.
func committed(path string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "show", "HEAD:./"+base)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("no committed version of %s: %s", base, msg)
	}
	return out, nil
}
