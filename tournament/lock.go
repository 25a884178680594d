package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// LockFile is the file of a report directory that the process writing it
// holds locked (flock(2), exclusive) for as long as it writes. The kernel
// drops the lock when the process ends, however it ends, so the lock of a
// run that was killed is stale by construction: the next writer takes it.
// The file says who holds it, for the refusal message.
const LockFile = ".lock"

// LockHolder is what a lock file says of the process that holds (or last
// held) it.
type LockHolder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

func (h LockHolder) String() string {
	return fmt.Sprintf("calcsol pid %d on host %s since %s", h.PID, h.Host, h.Since.UTC().Format(time.RFC3339))
}

// BusyError is a report directory that another process is writing.
type BusyError struct {
	Dir    string
	Holder LockHolder // zero when the lock file could not be read
}

func (e *BusyError) Error() string {
	who := "another calcsol"
	if e.Holder.PID != 0 {
		who = e.Holder.String()
	}
	return fmt.Sprintf("report directory %s is in use by %s (one writer at a time; wait for it to end, or end it)", e.Dir, who)
}

// DirLock is a report directory held by this process.
type DirLock struct {
	f *os.File
	// Stale is the holder of a lock left by a run that ended without
	// releasing it (killed), taken over; zero when there was none.
	Stale LockHolder
}

// LockDir takes the lock of report directory dir, which must exist, or
// returns a *BusyError when another process holds it. The lock file is
// removed on Release; one left behind by a killed run is taken over, and
// the lock's Stale says whose it was.
func LockDir(dir string) (*DirLock, error) {
	path := filepath.Join(dir, LockFile)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock report directory %s: %w", dir, err)
		}
		if busy, err := atomicfile.TryLock(f, true); busy || err != nil {
			h, _ := readHolder(f)
			f.Close()
			if busy {
				return nil, &BusyError{Dir: dir, Holder: h}
			}
			return nil, fmt.Errorf("lock report directory %s: %w", dir, err)
		}
		// The holder before us may have removed the file between our open
		// and our lock: then we hold a file nobody else can see, and try
		// again on the path's file.
		if same, err := samePath(f, path); err != nil || !same {
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("lock report directory %s: %w", dir, err)
			}
			continue
		}
		l := &DirLock{f: f}
		l.Stale, _ = readHolder(f)
		if err := writeHolder(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock report directory %s: %w", dir, err)
		}
		return l, nil
	}
}

// CheckDirLock returns a *BusyError when another process holds the lock of
// dir, and nil when nobody does (or dir has no lock file, or does not
// exist). It creates nothing: a command calls it before it decides to write.
func CheckDirLock(dir string) error {
	f, err := os.Open(filepath.Join(dir, LockFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	// A shared lock conflicts only with a writer's exclusive one; it goes
	// with the file's close.
	if busy, _ := atomicfile.TryLock(f, false); busy {
		h, _ := readHolder(f)
		return &BusyError{Dir: dir, Holder: h}
	}
	return nil
}

// Release removes the lock file and drops the lock. It does nothing on a
// nil lock or a second call, so it can be deferred.
func (l *DirLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Removed while still locked, so that no one locks the file as it goes.
	err := os.Remove(l.f.Name())
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	return err
}

// samePath reports whether the open file f is the file at path.
func samePath(f *os.File, path string) (bool, error) {
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	pi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(fi, pi), nil
}

func readHolder(f *os.File) (LockHolder, error) {
	var h LockHolder
	b := make([]byte, 4096)
	n, err := f.ReadAt(b, 0)
	if n == 0 {
		return h, err
	}
	err = json.Unmarshal([]byte(strings.TrimSpace(string(b[:n]))), &h)
	return h, err
}

// writeHolder writes this process as the holder of the locked file f.
func writeHolder(f *os.File) error {
	host, _ := os.Hostname()
	b, err := json.Marshal(LockHolder{PID: os.Getpid(), Host: host, Since: time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err = f.WriteAt(append(b, '\n'), 0)
	return err
}
