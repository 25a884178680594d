// Package measurements keeps the records of the long sharded runs the docs
// quote (README.md), in a compact form, and expands them back into the
// shard reports `calcsol tournament --shard k/N --out DIR` wrote, byte for
// byte, for `calcsol merge` and `calcsol eval compare` to read.
//
// A measurement is a directory holding
//
//   - config.yaml, the tournament's config, as every shard kept it;
//   - header.json (Header): the shards' manifest once, without its shard
//     and with each bound's verdicts run-length encoded, and for each shard
//     kept its number of games and the SHA-256 of the manifest.json and
//     results.jsonl it wrote (of the lines, for a results.jsonl.gz: the
//     shards expand with plain records);
//   - records.tsv.gz: what differs between a shard's records, one line a
//     game: cards placed, µs and how the game ended, the shards one after
//     the other in the header's order, each in its own order. The rest of a
//     record (the strategy, the corpus and its checksum, the rules, the deck
//     and whether it was won) follows from the manifest and the line's place.
//
// The package is its own module, so that the records stay out of the
// calcsol module's download.
package measurements
