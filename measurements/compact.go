package measurements

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/calcsol/calcsol/tournament"
)

// Compact reads the shard reports of one run (`calcsol tournament --shard
// k/N --out DIR`, finished or not) into a Measurement, and checks that it
// expands back into them byte for byte (ShardFiles). The run must be of one
// cell (one strategy on one corpus under one rule), its shards made by one
// program from one config, and no game may have failed or kept a trace:
// the compact form has no column for either.
func Compact(shardDirs []string) (*Measurement, error) {
	if len(shardDirs) == 0 {
		return nil, fmt.Errorf("compact: no shard reports given")
	}
	// tournament.Progress checks that the shards are of one run, each
	// record in its shard's share, and refuses a torn last line.
	if _, _, _, err := tournament.Progress(shardDirs); err != nil {
		return nil, err
	}
	type shard struct {
		dir string
		sh  tournament.Shard
	}
	var shards []shard
	for _, d := range shardDirs {
		man, err := tournament.ReadManifest(d)
		if err != nil {
			return nil, err
		}
		sh, err := tournament.ParseShard(man.Shard)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		shards = append(shards, shard{d, sh})
	}
	slices.SortFunc(shards, func(a, b shard) int { return cmp.Compare(a.sh.K, b.sh.K) })

	m := &Measurement{}
	for i, s := range shards {
		man, err := tournament.ReadManifest(s.dir)
		if err != nil {
			return nil, err
		}
		man.Shard = ""
		var verdicts []Verdicts
		for j := range man.Bounds {
			v := man.Bounds[j].Verdicts
			verdicts = append(verdicts, Verdicts{Runs: runs(v), SHA256: sum([]byte(v))})
			man.Bounds[j].Verdicts = ""
		}
		cfg, err := os.ReadFile(filepath.Join(s.dir, ConfigFile))
		if err != nil {
			return nil, err
		}
		if i == 0 {
			if len(man.Cells) != 1 || man.Cells[0].NotApplicable != "" {
				return nil, fmt.Errorf("%s: %d cells; a measurement is one strategy on one corpus under one rule", s.dir, len(man.Cells))
			}
			m.Header = Header{Format: Format, Manifest: man, Verdicts: verdicts}
			m.Config = cfg
		} else if !reflect.DeepEqual(man, m.Header.Manifest) || !reflect.DeepEqual(verdicts, m.Header.Verdicts) || !bytes.Equal(cfg, m.Config) {
			return nil, fmt.Errorf("%s: its manifest or config differs from %s's, beyond the shard", s.dir, shards[0].dir)
		}

		manifest, err := os.ReadFile(filepath.Join(s.dir, tournament.ManifestFile))
		if err != nil {
			return nil, err
		}
		// The lines, whichever form the shard keeps them in: a shard of a
		// calcsol that gzips its records expands into their plain form.
		results, err := tournament.ReadResultsData(s.dir)
		if err != nil {
			return nil, err
		}
		var games []game
		_, err = tournament.ReadRecords(bytes.NewReader(results), false, func(line int, rec tournament.Record) error {
			if rec.Failed || rec.Trace != "" {
				return fmt.Errorf("line %d: a failed game or a trace, which the compact form does not keep", line)
			}
			games = append(games, game{Placed: rec.Placed, Micros: rec.Micros, End: rec.End})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.dir, err)
		}
		m.games = append(m.games, games)
		m.Header.Shards = append(m.Header.Shards, Shard{Shard: s.sh.String(), Games: len(games),
			ManifestSHA256: sum(manifest), ResultsSHA256: sum(results)})
	}
	for i := range m.Header.Shards {
		if _, err := m.ShardFiles(i); err != nil {
			return nil, fmt.Errorf("compact %s: %w", shards[i].dir, err)
		}
	}
	return m, nil
}
