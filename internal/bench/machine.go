package bench

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// Machine describes where figures were taken.
type Machine struct {
	CPUs      int
	CPUModel  string
	Memory    string // `free -h`, or MemTotal when free is missing
	Go        string
	Terraform string
	Kernel    string
	LoadAvg   string // /proc/loadavg when read
}

// DescribeMachine gathers the machine's description.
func DescribeMachine(ctx context.Context, tf *Terraform) Machine {
	m := Machine{CPUs: runtime.NumCPU(), Go: runtime.Version(), LoadAvg: LoadAvg()}
	if tf != nil {
		m.Terraform = tf.Version
	}
	if out, err := exec.CommandContext(ctx, "go", "version").Output(); err == nil {
		m.Go = strings.TrimSpace(string(out))
	}
	if out, err := exec.CommandContext(ctx, "free", "-h").Output(); err == nil {
		m.Memory = strings.TrimRight(string(out), "\n")
	} else {
		m.Memory = procField("/proc/meminfo", "MemTotal")
	}
	m.CPUModel = procField("/proc/cpuinfo", "model name")
	if out, err := exec.CommandContext(ctx, "uname", "-srm").Output(); err == nil {
		m.Kernel = strings.TrimSpace(string(out))
	}
	return m
}

// LoadAvg is the first three fields of /proc/loadavg, or "".
func LoadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(raw))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// procField is the value of the first "key: value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }() // read-only: Close has nothing to report
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
