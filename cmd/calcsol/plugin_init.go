package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/spf13/cobra"

	"github.com/calcsol/calcsol/examples"
)

func newPluginInitCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init DIR --lang go|python",
		Short: "Start a strategy plugin project in DIR: a strategy to edit, built and entered in a tournament",
		Long: `Write into DIR (a new or empty directory) a complete plugin project: a
strategy to edit, a README with the commands that build it and try it, and a
tournament config that enters it against the priority table and a fast
preset on the shipped 1,000-deck corpus.

--lang go writes a Go module whose main package serves the "soonest-fit"
strategy of examples/goplugin. calcsol is not a published module: the new
module's go.mod resolves it with a replace directive pointing at this
checkout (--calcsol, by default the checkout around the working directory),
so it builds offline from the module cache that building calcsol filled,
and always against the calcsol it will be scored by. A copy of the SDK would
drift from the protocol; a go.work would need the checkout beside it.

--lang python writes the Python SDK (calcsol_plugin.py), its generated gRPC
stubs and the "lowest-stack" strategy of examples/pyplugin (plugin.py). It
needs Python 3 with grpcio and protobuf (Debian: python3-grpcio,
python3-protobuf).

See docs/plugins.md.`,
		Example: `  calcsol plugin init mystrategy --lang python
  calcsol plugin init mygo --lang go`,
		Args: cobra.ExactArgs(1),
		RunE: runPluginInit,
	}
	cmd.Flags().String("lang", "", "the plugin's language: go or python (required)")
	cmd.Flags().String("python", "", "the Python 3 that runs a Python plugin (default: python3 on PATH, or /usr/bin/python3, whichever imports grpc)")
	cmd.Flags().String("calcsol", "", "the calcsol checkout a Go plugin builds against (default: the one around the working directory)")
	return cmd
}

// pluginFile is one file plugin init writes.
type pluginFile struct {
	name string
	data []byte
	mode os.FileMode
}

func runPluginInit(cmd *cobra.Command, args []string) error {
	dir := args[0]
	lang, _ := cmd.Flags().GetString("lang")
	var files []pluginFile
	var err error
	switch lang {
	case "go":
		checkout, _ := cmd.Flags().GetString("calcsol")
		files, err = goPluginFiles(dir, checkout)
	case "python":
		python, _ := cmd.Flags().GetString("python")
		if python == "" {
			var found bool
			if python, found = findPython(); !found {
				fmt.Fprintf(cmd.ErrOrStderr(), "calcsol: no Python 3 here imports grpc: install grpcio and protobuf (Debian: apt-get install python3-grpcio python3-protobuf), or give --python\n")
			}
		}
		files, err = pythonPluginFiles(dir, python)
	case "":
		return badInput("--lang is required: go or python")
	default:
		return badInput("--lang %q: want go or python", lang)
	}
	if err != nil {
		return badInput("%w", err)
	}
	if err := writeProject(dir, files); err != nil {
		return err
	}
	readme := filepath.Join(dir, "README.md")
	fmt.Fprintf(cmd.OutOrStdout(), "wrote a %s plugin project in %s; next steps in %s:\n\n%s", lang, dir, readme, nextSteps(files))
	return nil
}

// writeProject writes files into a new directory beside dir and renames it
// into place, so that a failure leaves nothing half-written; dir may exist
// if it is empty.
func writeProject(dir string, files []pluginFile) error {
	entries, err := os.ReadDir(dir)
	switch {
	case err == nil && len(entries) > 0:
		return badInput("%s is not empty: plugin init writes only into a new or empty directory", dir)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return badInput("%w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(dir)), ".plugin-init-")
	if err != nil {
		return badInput("%w", err)
	}
	defer os.RemoveAll(tmp) // nothing left once renamed
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f.name), f.data, f.mode); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if len(entries) == 0 && err == nil {
		_ = os.Remove(dir) // empty, or absent
	}
	return os.Rename(tmp, dir)
}

// nextSteps is the shell part of the project's README.
func nextSteps(files []pluginFile) string {
	for _, f := range files {
		if f.name == "README.md" {
			_, steps, _ := strings.Cut(string(f.data), "```sh\n")
			steps, _, _ = strings.Cut(steps, "```")
			return steps
		}
	}
	return ""
}

// pluginProject fills the README and tournament templates.
type pluginProject struct {
	Name, Lang, Command, Build, Checkout string
}

var pluginReadme = template.Must(template.New("readme").Parse(`# {{.Name}}: a calcsol strategy plugin ({{.Lang}})

Written by calcsol plugin init. Edit the strategy, then build it, play it and
enter it in the tournament beside the priority table (docs/plugins.md in the
calcsol checkout says what a plugin sees and may answer):

` + "```sh" + `
cd {{.Name}}
{{if .Build}}{{.Build}}
{{end}}calcsol eval --corpus uniform-1000 --stacks 3 --strategy "plugin:command={{.Command}}"
calcsol tournament tournament.yaml --out report
` + "```" + `

To pin the program a tournament plays, put its SHA-256 in the entry
(` + "`sha256sum`" + ` of the {{if .Build}}program{{else}}script{{end}}): calcsol refuses to start it once it changed.
`))

var pluginTournament = template.Must(template.New("tournament").Parse(`# {{.Name}} against the priority table and a fast preset (calcsol plugin init).
seed: 1
strategies:
  - name: {{.Name}}
    base: {plugin: {command: "{{.Command}}", batch: 256}}
  - name: priority
    strategy: priority
  - name: fast-3
    strategy: fast-3
corpora:
  - uniform-1000
rules:
  - {stacks: 3}
`))

func projectFiles(p pluginProject) []pluginFile {
	var readme, tour bytes.Buffer
	_ = pluginReadme.Execute(&readme, p) // plain strings: cannot fail
	_ = pluginTournament.Execute(&tour, p)
	return []pluginFile{{"README.md", readme.Bytes(), 0o644}, {"tournament.yaml", tour.Bytes(), 0o644}}
}

// projectName is the name of the project's strategy: DIR's base name.
func projectName(dir string) (string, error) {
	name := filepath.Base(filepath.Clean(dir))
	if name == "" || name == "." || name == "/" || strings.ContainsAny(name, " \"'+:,=") {
		return "", fmt.Errorf("%q: name the project's directory with a plain word (it names the strategy)", dir)
	}
	return name, nil
}

func goPluginFiles(dir, checkout string) ([]pluginFile, error) {
	name, err := projectName(dir)
	if err != nil {
		return nil, err
	}
	if checkout == "" {
		if checkout, err = findCheckout(); err != nil {
			return nil, err
		}
	}
	if checkout, err = filepath.Abs(checkout); err != nil {
		return nil, err
	}
	gomod, err := os.ReadFile(filepath.Join(checkout, "go.mod"))
	if err != nil || !bytes.HasPrefix(gomod, []byte("module github.com/calcsol/calcsol\n")) {
		return nil, fmt.Errorf("--calcsol %s: not a calcsol checkout (no go.mod of module github.com/calcsol/calcsol)", checkout)
	}
	gosum, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		return nil, fmt.Errorf("--calcsol %s: %w", checkout, err)
	}
	// The checkout's go line and requirements, so that the plugin builds
	// with the very module versions (and go.sum) calcsol was built with,
	// from the module cache, without go mod tidy (which would look up the
	// test dependencies of every dependency).
	var goLine, requires string
	if _, rest, ok := strings.Cut(string(gomod), "\ngo "); ok {
		goLine, requires, _ = strings.Cut(rest, "\n")
	}
	main, err := fs.ReadFile(examples.Files, "goplugin/main.go")
	if err != nil {
		return nil, err
	}
	main = bytes.Replace(main, []byte("// Command goplugin is an example strategy plugin for calcsol, a complete\n// program to copy"),
		[]byte("// Command "+name+" is a calcsol strategy plugin, made by calcsol plugin init\n// from examples/goplugin"), 1)
	mod := fmt.Sprintf(`module example.org/%s

go %s

require github.com/calcsol/calcsol v0.0.0

// calcsol is not published as a module: build against the checkout that
// scores the plugin, with the module versions it was built with.
replace github.com/calcsol/calcsol => %s
%s`, name, goLine, checkout, requires)
	files := []pluginFile{{"go.mod", []byte(mod), 0o644}, {"go.sum", gosum, 0o644}, {"main.go", main, 0o644}}
	return append(files, projectFiles(pluginProject{Name: name, Lang: "Go", Command: "./" + name,
		Build: "go build -o " + name + " .", Checkout: checkout})...), nil
}

// findCheckout finds the calcsol checkout around the working directory.
func findCheckout() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module github.com/calcsol/calcsol\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("a Go plugin builds against a calcsol checkout: run plugin init inside one, or give --calcsol DIR")
		}
		dir = parent
	}
}

// findPython returns the first Python 3 of python3 on PATH and
// /usr/bin/python3 that imports grpc and protobuf; found is false when
// none does (then "python3").
func findPython() (python string, found bool) {
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if err := exec.Command(p, "-c", "import grpc, google.protobuf").Run(); err == nil {
			return p, true
		}
	}
	return "python3", false
}

func pythonPluginFiles(dir, python string) ([]pluginFile, error) {
	name, err := projectName(dir)
	if err != nil {
		return nil, err
	}
	var files []pluginFile
	for _, f := range []string{"plugin.py", "calcsol_plugin.py", "strategy_pb2.py", "strategy_pb2_grpc.py"} {
		data, err := fs.ReadFile(examples.Files, "pyplugin/"+f)
		if err != nil {
			return nil, err
		}
		mode := os.FileMode(0o644)
		if f == "plugin.py" {
			mode = 0o755
		}
		files = append(files, pluginFile{f, data, mode})
	}
	return append(files, projectFiles(pluginProject{Name: name, Lang: "Python", Command: python + " plugin.py"})...), nil
}
