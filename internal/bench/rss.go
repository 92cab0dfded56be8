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

// clockTick is the unit of utime and stime in /proc/<pid>/stat (USER_HZ,
// 100 on every Linux architecture Terraform ships for).
const clockTick = 10 * time.Millisecond

// procSampler watches the children of one process whose executable name
// starts with a prefix (Terraform's provider plugin processes) and keeps,
// for each, the largest VmHWM (the kernel's high-water mark of resident
// memory) and CPU time seen. Both only grow, so sampling misses no more
// than the last interval of a process's life.
type procSampler struct {
	parent int
	prefix string // compared with the name in /proc/<pid>/stat, which Linux cuts at 15 bytes
	proc   string // "/proc"; tests point it elsewhere

	mu  sync.Mutex
	hwm map[int]int64 // pid -> bytes
	cpu map[int]int64 // pid -> clock ticks (user + system)
}

func newProcSampler(parent int, name string) *procSampler {
	if len(name) > 15 {
		name = name[:15]
	}
	return &procSampler{parent: parent, prefix: name, proc: "/proc", hwm: map[int]int64{}, cpu: map[int]int64{}}
}

// run samples every interval until the returned stop is called.
func (s *procSampler) run(interval time.Duration) (stop func()) {
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

// children lists the parent's child pids from /proc/<pid>/task/*/children,
// or, where the kernel lacks those files, every pid.
func (s *procSampler) children() []int {
	tasks, _ := filepath.Glob(filepath.Join(s.proc, strconv.Itoa(s.parent), "task", "*", "children"))
	var pids []int
	found := false
	for _, t := range tasks {
		raw, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		found = true
		for _, f := range strings.Fields(string(raw)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	if found {
		return pids
	}
	entries, _ := os.ReadDir(s.proc)
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// sample reads every matching child once.
func (s *procSampler) sample() {
	for _, pid := range s.children() {
		dir := filepath.Join(s.proc, strconv.Itoa(pid))
		st, ok := readStat(filepath.Join(dir, "stat"))
		if !ok || st.ppid != s.parent || !strings.HasPrefix(st.comm, s.prefix) {
			continue
		}
		hwm, ok := readVmHWM(filepath.Join(dir, "status"))
		s.mu.Lock()
		if ok && hwm > s.hwm[pid] {
			s.hwm[pid] = hwm
		}
		if st.cpuTicks > s.cpu[pid] {
			s.cpu[pid] = st.cpuTicks
		}
		s.mu.Unlock()
	}
}

// result is the largest high-water mark seen, the CPU time of all matching
// processes and how many there were.
func (s *procSampler) result() (peak int64, cpu time.Duration, processes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.hwm {
		peak = max(peak, v)
	}
	var ticks int64
	for _, v := range s.cpu {
		ticks += v
	}
	seen := map[int]bool{}
	for pid := range s.hwm {
		seen[pid] = true
	}
	for pid := range s.cpu {
		seen[pid] = true
	}
	return peak, time.Duration(ticks) * clockTick, len(seen)
}

type procStat struct {
	ppid     int
	comm     string
	cpuTicks int64 // utime + stime
}

// readStat parses /proc/<pid>/stat, whose second field is the command name
// in parentheses (it may hold spaces and parentheses, hence the last ')').
func readStat(path string) (procStat, bool) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return procStat{}, false
	}
	return parseStat(raw)
}

func parseStat(raw []byte) (procStat, bool) {
	open, closing := bytes.IndexByte(raw, '('), bytes.LastIndexByte(raw, ')')
	if open < 0 || closing < open {
		return procStat{}, false
	}
	// After the name: state(3) ppid(4) ... utime(14) stime(15), numbered
	// from 1 as in proc(5); fields[0] is the state.
	fields := strings.Fields(string(raw[closing+1:]))
	if len(fields) < 13 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(fields[1])
	utime, err2 := strconv.ParseInt(fields[11], 10, 64)
	stime, err3 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return procStat{}, false
	}
	return procStat{ppid: ppid, comm: string(raw[open+1 : closing]), cpuTicks: utime + stime}, true
}

// readVmHWM returns VmHWM of /proc/<pid>/status in bytes.
func readVmHWM(path string) (int64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer func() { _ = f.Close() }() // read-only: Close has nothing to report
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
