package subgame

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/calcsol/calcsol/internal/atomicfile"
)

// The file format: the magic, then the number of stacks and of cards (one
// byte each), two zero bytes, then every layer m = 1 … M in Index order,
// each value a little-endian uint16, then the SHA-256 of all bytes before
// it. Nothing in it depends on the machine.
const magic = "CSSUBG01"

const headerSize = len(magic) + 4

// MarshalBinary returns the table in its file format.
func (t *Table) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, headerSize+2*t.Entries()+sha256.Size)
	b = append(b, magic...)
	b = append(b, byte(t.Stacks), byte(t.Cards), 0, 0)
	for m := 1; m <= t.Cards; m++ {
		for _, v := range t.vals[m] {
			b = binary.LittleEndian.AppendUint16(b, v)
		}
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...), nil
}

// Sum returns the hex SHA-256 of the table's file: two tables are the same
// exactly when their sums are.
func (t *Table) Sum() string {
	b, _ := t.MarshalBinary()
	return hex.EncodeToString(b[len(b)-sha256.Size:])
}

// ErrCorrupt marks a table file whose checksum or layout is wrong.
var ErrCorrupt = errors.New("not a valid subgame table")

// Unmarshal reads a table in its file format, checking its checksum.
func Unmarshal(b []byte) (*Table, error) {
	if len(b) < headerSize+sha256.Size || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: no %s header", ErrCorrupt, magic)
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, fmt.Errorf("%w: checksum %x, file says %x", ErrCorrupt, got[:4], sum[:4])
	}
	k := Key{Stacks: int(b[len(magic)]), Cards: int(b[len(magic)+1])}
	if err := k.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if want := headerSize + 2*k.Entries(); len(body) != want {
		return nil, fmt.Errorf("%w: %d bytes of values for %s, want %d", ErrCorrupt, len(body)-headerSize, k, want-headerSize)
	}
	t := &Table{Key: k, vals: make([][]uint16, k.Cards+1)}
	off := headerSize
	for m := 1; m <= k.Cards; m++ {
		t.vals[m] = make([]uint16, pow(k.Stacks+1, m-1))
		for i := range t.vals[m] {
			t.vals[m][i] = binary.LittleEndian.Uint16(body[off:])
			off += 2
		}
	}
	return t, nil
}

// KnownSums are the sums of the default tables as the solver builds them:
// a cached file is taken only if its sum is this one (a changed solver
// must change this list, and every cache is built again).
var KnownSums = map[Key]string{
	{1, 13}: "661a63ea17be842eb39fc5135ceeec180d55e206f71dbf9facd83580688fa1d4",
	{2, 13}: "8021bc455bc0ef82d177f73741391b54bd0887b97fd64a3f02ff3a7fcc61c0c5",
	{3, 12}: "27ef5ca2957c6bd62c5f28213e397c455793c4d1e0a4ff981869818a70c8ac2c",
	{4, 10}: "ac75ded7347208dae9f892fdb940d5bf97433e3420b7c417d2ae72195705f6e0",
}

// FileName is the name of k's table file in a cache directory.
func FileName(k Key) string { return "subgame-" + k.String() + ".bin" }

// CacheEnv names the environment variable that, when set, is the cache
// directory instead of the default.
const CacheEnv = "CALCSOL_CACHE_DIR"

// DefaultDir is the cache directory: $CALCSOL_CACHE_DIR when set, else
// calcsol under the user's cache directory (os.UserCacheDir), or "" when
// there is none.
func DefaultDir() string {
	if d := os.Getenv(CacheEnv); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "calcsol")
}

// Origin says where Load found a table.
type Origin string

// The origins of a loaded table.
const (
	FromCache Origin = "cache" // read from the cache directory
	Built     Origin = "built" // built now, and written to the cache if there is one
)

// Load returns k's table from dir (see FileName) when a valid file with the
// right key and sum is there; otherwise it builds the table and writes it
// there (dir "" keeps it in memory only). A cache that cannot be written is
// reported in cacheErr; the table is still good.
func Load(ctx context.Context, k Key, dir string) (t *Table, from Origin, cacheErr error, err error) {
	if err := k.Validate(); err != nil {
		return nil, "", nil, err
	}
	if dir != "" {
		path := filepath.Join(dir, FileName(k))
		if b, rerr := os.ReadFile(path); rerr == nil {
			if t, uerr := Unmarshal(b); uerr == nil && t.Key == k && sumOK(k, t) {
				return t, FromCache, nil, nil
			}
		}
	}
	t, err = Build(ctx, k)
	if err != nil {
		return nil, "", nil, err
	}
	if dir != "" {
		cacheErr = t.WriteFile(filepath.Join(dir, FileName(k)))
	}
	return t, Built, cacheErr, nil
}

// sumOK reports whether t's sum is the known one for k (or none is known).
func sumOK(k Key, t *Table) bool {
	want, ok := KnownSums[k]
	return !ok || t.Sum() == want
}

// WriteFile writes t to path in its file format, atomically (a reader sees
// the old file or the whole new one), making path's directory.
func (t *Table) WriteFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, _ := t.MarshalBinary()
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := io.Copy(f, bytes.NewReader(b)); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// shared holds the tables this process loaded, one per key.
var shared sync.Map // Key → *sharedTable

type sharedTable struct {
	once sync.Once
	t    *Table
	err  error
}

// Shared returns k's table, loaded once per process from the default cache
// directory (built and cached on first use): what players call. Loading
// ignores cancellation, so that one cancelled caller does not spoil the
// table for the others.
func Shared(k Key) (*Table, error) {
	v, _ := shared.LoadOrStore(k, &sharedTable{})
	st := v.(*sharedTable)
	st.once.Do(func() {
		st.t, _, _, st.err = Load(context.Background(), k, DefaultDir())
	})
	return st.t, st.err
}
