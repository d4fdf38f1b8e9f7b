// Command trapset writes insect trap pictures as the simulator draws them,
// with their true counts, for training and checking the AI lab's built-in
// counter (tools/ailab/train_counter.py, docs/ai-lab.md).
//
//	go run ./tools/ailab/trapset -out DIR -n 4000 -seed 1 -year 2024
//
// DIR gets pic-NNNNN.jpg and counts.csv (file, count, trap seed, time,
// light, rain). A quarter of the pictures are taken while it rains. Everything follows from -seed: the same flags write the
// same files. Held-out sets use another -seed (other traps) and -year
// (other days).
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fieldwatch/fieldwatch/internal/simulator"
)

func main() {
	out := flag.String("out", "", "directory to write into (created)")
	n := flag.Int("n", 1000, "number of pictures")
	seed := flag.Uint64("seed", 1, "seed of traps, times and catches")
	year := flag.Int("year", 2024, "year the pictures are taken in")
	maxCatch := flag.Int("max", 200, "largest catch")
	flag.Parse()
	if *out == "" {
		log.Fatal("-out is required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	r := rand.New(rand.NewPCG(*seed, 0x7a95e7))
	f, err := os.Create(filepath.Join(*out, "counts.csv"))
	if err != nil {
		log.Fatal(err)
	}
	w := csv.NewWriter(f)
	_ = w.Write([]string{"file", "count", "trap", "time", "light", "rain"})
	cst := time.FixedZone("CST", 8*3600)
	start := time.Date(*year, 1, 1, 0, 0, 0, 0, cst)
	for i := range *n {
		trap := int64(r.Uint32())
		lat, lng := 34+6*r.Float64(), 113+6*r.Float64()
		at := start.Add(time.Duration(r.Int64N(365*24*3600)) * time.Second)
		// Rain is rare on the plain; a quarter of the pictures are taken
		// at a rainy time so that rain is well represented.
		if r.IntN(4) == 0 {
			for range 2000 {
				if simulator.SceneAt(lat, lng, at).Raining {
					break
				}
				at = start.Add(time.Duration(r.Int64N(365*24*3600)) * time.Second)
			}
		}
		scene := simulator.SceneAt(lat, lng, at)
		// Catch sizes: a third small (0–20), the rest spread up to max,
		// more of them in the lower half as on real nights.
		var catch int
		switch k := r.IntN(3); k {
		case 0:
			catch = r.IntN(21)
		default:
			catch = int(math.Round(float64(*maxCatch) * math.Pow(r.Float64(), 1.3)))
		}
		pic := simulator.TrapPicture(trap, lat, lng, at, catch)
		name := fmt.Sprintf("pic-%05d.jpg", i)
		if err := os.WriteFile(filepath.Join(*out, name), pic, 0o644); err != nil {
			log.Fatal(err)
		}
		rain := "0"
		if scene.Raining {
			rain = "1"
		}
		_ = w.Write([]string{name, strconv.Itoa(catch), strconv.FormatInt(trap, 10), at.Format(time.RFC3339),
			strconv.FormatFloat(scene.Light, 'f', 3, 64), rain})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
