// Command evalcounter runs the built-in insect counter, in the binary's own
// runtime, on pictures written by tools/ailab/trapset and prints its
// error against their true counts (docs/ai-lab.md).
//
//	go run ./tools/ailab/evalcounter -dir /tmp/traps/test
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/fieldwatch/fieldwatch/internal/ailab"
	"github.com/fieldwatch/fieldwatch/internal/ailab/builtin"
)

func main() {
	dir := flag.String("dir", "", "directory with counts.csv and the pictures")
	flag.Parse()
	f, err := os.Open(filepath.Join(*dir, "counts.csv"))
	if err != nil {
		log.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		log.Fatal(err)
	}
	p, err := ailab.ReadPackage(builtin.InsectCounterFile, builtin.InsectCounter)
	if err != nil {
		log.Fatal(err)
	}
	m, err := ailab.Load(p)
	if err != nil {
		log.Fatal(err)
	}
	var n int
	var sumErr, sumTrue, ms float64
	for _, r := range rows[1:] {
		pic, err := os.ReadFile(filepath.Join(*dir, r[0]))
		if err != nil {
			log.Fatal(err)
		}
		truth, _ := strconv.ParseFloat(r[1], 64)
		res, err := m.RunPicture(pic)
		if err != nil {
			log.Fatal(err)
		}
		n++
		sumErr += math.Abs(res.Values[0].Value - truth)
		sumTrue += truth
		ms += res.Millis
	}
	fmt.Printf("pictures %d, mean true count %.2f, mean absolute error %.2f (%.1f %% of the true count), %.1f ms a picture\n",
		n, sumTrue/float64(n), sumErr/float64(n), 100*sumErr/sumTrue, ms/float64(n))
}
