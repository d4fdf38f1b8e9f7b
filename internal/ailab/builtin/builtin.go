// Package builtin holds the models shipped in the binary: the insect
// counter of the demo traps, trained on the simulator's trap pictures by
// tools/ailab/train_counter.py (docs/ai-lab.md).
package builtin

import _ "embed"

// InsectCounterFile is the counter package's file name.
const InsectCounterFile = "insect-counter.l5d"

// InsectCounter is the counter as an .l5d package.
//
//go:embed insect-counter.l5d
var InsectCounter []byte
