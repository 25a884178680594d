package testprog

import (
	"os/exec"
	"sync"
)

// Python is the interpreter the tests run the Python plugin with: Debian's,
// the one that sees python3-grpcio (a pyenv python3 earlier on PATH may not).
const Python = "/usr/bin/python3"

// PythonMissing says why Python cannot run the Python plugin, or is "" when
// it can: asked once, and only whether the modules are there, not by
// importing them (importing grpc costs an interpreter a fifth of a second
// of CPU; a module that is there but broken fails the test instead).
var PythonMissing = sync.OnceValue(func() string {
	const find = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('grpc') and importlib.util.find_spec('google.protobuf') else 3)"
	out, err := exec.Command(Python, "-c", find).CombinedOutput()
	if err == nil {
		return ""
	}
	return "the Python plugin needs " + Python + " with grpcio and protobuf (apt-get install python3-grpcio python3-protobuf): " + err.Error() + "\n" + string(out)
})
