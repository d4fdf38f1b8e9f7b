package config

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
)

// MemoryLimitBytes is --memory-limit in bytes: 0 for off, or for auto when
// GOMEMLIMIT is set (the runtime has already taken it) or nothing tells the
// memory available.
func (s *Serve) MemoryLimitBytes() (int64, error) {
	switch v := strings.TrimSpace(strings.ToLower(s.MemoryLimit)); v {
	case "off", "0":
		return 0, nil
	case "auto", "":
		if os.Getenv("GOMEMLIMIT") != "" {
			return 0, nil
		}
		return AutoMemoryLimit(), nil
	default:
		n, err := humanize.ParseBytes(v)
		if err != nil || n < 16<<20 || n > math.MaxInt64 {
			return 0, fmt.Errorf("--memory-limit %q: must be auto, off or a size of at least 16MiB, such as 150MiB or 1GB", s.MemoryLimit)
		}
		return int64(n), nil
	}
}

// AutoMemoryLimit is 3/4 of the memory the process may use: its cgroup's
// limit (v2 memory.max, or v1 memory.limit_in_bytes) when one is set, else
// the machine's memory; 0 when neither can be read.
func AutoMemoryLimit() int64 {
	limit := cgroupLimit()
	if total := memTotal(); total > 0 && (limit <= 0 || limit > total) {
		limit = total
	}
	return limit / 4 * 3
}

func cgroupLimit() int64 {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 {
			return n // "max" (no limit) does not parse
		}
	}
	return 0
}

func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
