package bench

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rssSampler watches the children of one process whose executable name
// starts with a prefix (Terraform's provider plugin processes) and keeps the
// largest VmHWM, the kernel's high-water mark of resident memory, each
// reaches. VmHWM only grows, so sampling misses nothing but the last few
// milliseconds of a process's life.
type rssSampler struct {
	parent int
	prefix string // compared with /proc/<pid>/comm, which Linux cuts at 15 bytes

	mu   sync.Mutex
	hwm  map[int]int64 // pid -> bytes
	proc string        // /proc, replaced in tests
}

func newRSSSampler(parent int, name string) *rssSampler {
	if len(name) > 15 {
		name = name[:15]
	}
	return &rssSampler{parent: parent, prefix: name, hwm: map[int]int64{}, proc: "/proc"}
}

// run samples every interval until the returned stop is called; stop takes
// one last sample.
func (s *rssSampler) run(interval time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			s.sample()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}

// sample reads every child of the parent once.
func (s *rssSampler) sample() {
	entries, err := os.ReadDir(s.proc)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, comm, ok := readStat(filepath.Join(s.proc, e.Name(), "stat"))
		if !ok || ppid != s.parent || !strings.HasPrefix(comm, s.prefix) {
			continue
		}
		if hwm, ok := readVmHWM(filepath.Join(s.proc, e.Name(), "status")); ok {
			s.mu.Lock()
			if hwm > s.hwm[pid] {
				s.hwm[pid] = hwm
			}
			s.mu.Unlock()
		}
	}
}

// peak is the largest high-water mark seen and how many processes were seen.
func (s *rssSampler) peak() (bytes int64, processes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.hwm {
		bytes = max(bytes, v)
	}
	return bytes, len(s.hwm)
}

// readStat returns the parent pid and command name from /proc/<pid>/stat,
// whose second field is the name in parentheses (it may hold spaces).
func readStat(path string) (ppid int, comm string, ok bool) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, "", false
	}
	open, closing := bytes.IndexByte(raw, '('), bytes.LastIndexByte(raw, ')')
	if open < 0 || closing < open {
		return 0, "", false
	}
	fields := strings.Fields(string(raw[closing+1:]))
	if len(fields) < 2 {
		return 0, "", false
	}
	ppid, err = strconv.Atoi(fields[1])
	return ppid, string(raw[open+1 : closing]), err == nil
}

// readVmHWM returns VmHWM of /proc/<pid>/status in bytes.
func readVmHWM(path string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fields := strings.Fields(v) // "12345 kB"
			if len(fields) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}
