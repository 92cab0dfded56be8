package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator"
	"github.com/rms-labs/terraform-provider-rms/internal/outofband"
)

// The emulator scenario: rms-emulator, as a separate process with
// -data-dir, holding one list of N contacts of 4 attributes made by one ADD
// import, as users' CI fixtures shaped like production do. It measures what
// such a user waits for and what the machine must hold: memory after the
// import and over a restore, an idle while and one save; the data
// directory's size; how long one change takes to reach the disk; how long
// the process takes to stop with nothing waiting to be saved, and to
// restore and serve again.

// EmulatorScaleRun is the figures of one size.
type EmulatorScaleRun struct {
	N        int
	CSVBytes int64
	Import   time.Duration // upload to FINISHED
	// ImportRSS is VmRSS right after the import finished.
	ImportRSS int64
	// FirstStop is the first process's SIGTERM to exit, once the data
	// directory had settled after the import.
	FirstStop time.Duration
	DirBytes  int64 // the data directory after the first stop
	// Restore is the second process's start to its first answered request.
	Restore time.Duration
	// Save is a change of 1 contact (the answer) to the data directory
	// holding it.
	Save time.Duration
	// Stop is the second process's SIGTERM to exit with nothing pending.
	Stop time.Duration
	// PeakRSS is the second process's VmHWM over restore, idle and one save.
	PeakRSS int64
	Command string // how the emulator was started
}

// emuScaleIdle is how long the restored emulator idles before the change.
const emuScaleIdle = 2 * time.Second

// EmulatorScale runs the scenario for each size, with the rms-emulator
// binary built once from root.
func (b *Bench) EmulatorScale(ctx context.Context, root string, sizes []int) ([]EmulatorScaleRun, error) {
	bin := filepath.Join(b.Dir, "rms-emulator")
	b.logf("emulator: building rms-emulator")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/rms-emulator")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building rms-emulator: %w\n%s", err, out)
	}
	var runs []EmulatorScaleRun
	for _, n := range sizes {
		run, err := b.emulatorScale(ctx, bin, n)
		if err != nil {
			return runs, fmt.Errorf("emulator with %d contacts: %w", n, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func (b *Bench) emulatorScale(ctx context.Context, bin string, n int) (EmulatorScaleRun, error) {
	run := EmulatorScaleRun{N: n}
	dir := filepath.Join(b.Dir, fmt.Sprintf("emulator-%d", n))
	dataDir := filepath.Join(dir, "data")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return run, err
	}
	csvPath := filepath.Join(dir, "contacts.csv")
	var err error
	if run.CSVBytes, err = writeScaleCSV(csvPath, n); err != nil {
		return run, err
	}

	b.logf("emulator N=%d: importing %s", n, fileSize(run.CSVBytes))
	p, err := startEmuProcess(ctx, bin, dir, dataDir)
	if err != nil {
		return run, err
	}
	defer p.kill()
	run.Command = p.command
	listID, err := p.createList(ctx)
	if err != nil {
		return run, err
	}
	start := time.Now()
	if err := p.importCSV(ctx, listID, csvPath); err != nil {
		return run, err
	}
	run.Import = time.Since(start)
	run.ImportRSS = procStatusBytes(p.cmd.Process.Pid, "VmRSS:")
	b.logf("emulator N=%d: imported in %s, RSS %s; waiting for the data directory to settle", n, round(run.Import), mib(run.ImportRSS))
	if err := settleDir(ctx, dataDir, 2*time.Second); err != nil {
		return run, err
	}
	if run.FirstStop, err = p.stop(); err != nil {
		return run, err
	}
	if run.DirBytes, err = dirSize(dataDir); err != nil {
		return run, err
	}

	b.logf("emulator N=%d: restoring %s", n, fileSize(run.DirBytes))
	start = time.Now()
	q, err := startEmuProcess(ctx, bin, dir, dataDir)
	if err != nil {
		return run, err
	}
	defer q.kill()
	if err := q.waitServing(ctx); err != nil {
		return run, err
	}
	run.Restore = time.Since(start)
	time.Sleep(emuScaleIdle)
	before := dirSignature(dataDir, false)
	body := map[string]any{"properties": map[string]any{"firstname": "Grace"}}
	if err := q.do(ctx, http.MethodPut, "/lists/"+listID+"/contacts/"+url.PathEscape(scaleEmail(n/2)), body, nil); err != nil {
		return run, fmt.Errorf("changing one contact: %w", err)
	}
	changed := time.Now()
	if err := waitDirChange(ctx, dataDir, before, 2*time.Minute); err != nil {
		return run, err
	}
	run.Save = time.Since(changed)
	if err := settleDir(ctx, dataDir, time.Second); err != nil {
		return run, err
	}
	run.PeakRSS = procStatusBytes(q.cmd.Process.Pid, "VmHWM:")
	if run.Stop, err = q.stop(); err != nil {
		return run, err
	}
	b.logf("emulator N=%d: restore %s, save %s, stop %s, peak RSS %s", n, round(run.Restore), round(run.Save), round(run.Stop), mib(run.PeakRSS))
	return run, os.RemoveAll(dir)
}

// scaleEmail is the identity (e-mail) of row i of writeScaleCSV's file.
func scaleEmail(i int) string { return "c" + strconv.Itoa(i) + "@example.com" }

// writeScaleCSV writes n rows of the 4 standard attributes, the e-mail
// being the identity column.
func writeScaleCSV(path string, n int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	_, _ = w.WriteString("email,mobile,firstname,lastname\n")
	for i := 0; i < n; i++ {
		s := strconv.Itoa(i)
		_, _ = w.WriteString(scaleEmail(i) + ",+4915" + fmt.Sprintf("%09d", i) + ",Ada,Lovelace-" + s + "\n")
	}
	if err := w.Flush(); err != nil {
		_ = f.Close() // the write's error is the one to report
		return 0, err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close() // Stat's error is the one to report
		return 0, err
	}
	return st.Size(), f.Close()
}

// emuProcess is one rms-emulator process.
type emuProcess struct {
	cmd     *exec.Cmd
	account outofband.Account // http://127.0.0.1:port/rest/<customer id>
	portF   string
	command string
	exited  chan error
}

func startEmuProcess(ctx context.Context, bin, dir, dataDir string) (*emuProcess, error) {
	portF := filepath.Join(dir, "url")
	_ = os.Remove(portF)
	args := []string{"-addr", "127.0.0.1:0", "-port-file", portF, "-data-dir", dataDir}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &emuProcess{cmd: cmd, portF: portF, exited: make(chan error, 1),
		command: "rms-emulator " + strings.Join(args[:2], " ") + " -port-file FILE -data-dir DIR"}
	go func() { p.exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		raw, err := os.ReadFile(portF)
		if err == nil && len(bytes.TrimSpace(raw)) > 0 { // written atomically
			p.account = outofband.Account{
				Base:     strings.TrimSpace(string(raw)) + "/rest/" + strconv.FormatInt(emulator.DefaultCustomerID, 10),
				Username: emulator.DefaultUsername, Password: emulator.DefaultPassword,
			}
			return p, nil
		}
		select {
		case err := <-p.exited:
			return nil, fmt.Errorf("rms-emulator exited before serving: %w", exitErr(err))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, errors.New("rms-emulator did not write its port file in 10 minutes")
		}
	}
}

// exitErr is a process's exit as an error, also when it exited with 0.
func exitErr(err error) error {
	if err == nil {
		return errors.New("exit status 0")
	}
	return err
}

// waitServing waits for the first answered request.
func (p *emuProcess) waitServing(ctx context.Context) error {
	for {
		if err := p.do(ctx, http.MethodGet, "/lists", nil, nil); err == nil {
			return nil
		}
		select {
		case err := <-p.exited:
			return fmt.Errorf("rms-emulator exited: %w", exitErr(err))
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM and times the exit.
func (p *emuProcess) stop() (time.Duration, error) {
	start := time.Now()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return 0, err
	}
	err := <-p.exited
	p.exited <- err // kill may read it again
	return time.Since(start), err
}

func (p *emuProcess) kill() {
	select {
	case err := <-p.exited:
		p.exited <- err
	default:
		_ = p.cmd.Process.Kill()
		p.exited <- <-p.exited
	}
}

// do sends one request to the process's account, a JSON body when body is
// not nil, and decodes the answer into out when out is not nil.
func (p *emuProcess) do(ctx context.Context, method, path string, body, out any) error {
	status, raw, err := p.account.JSON(ctx, method, path, body)
	return answer(method, path, status, raw, err, out)
}

// send is do with a body of another type (an import's CSV file).
func (p *emuProcess) send(ctx context.Context, method, path, contentType string, body io.Reader, out any) error {
	status, raw, err := p.account.Send(ctx, method, path, contentType, body)
	return answer(method, path, status, raw, err, out)
}

// answer is a request's outcome as one error: not sent or not read, not
// 2xx, or not the JSON out expects.
func answer(method, path string, status int, raw []byte, err error, out any) error {
	if err != nil {
		return err
	}
	if status >= 300 {
		return fmt.Errorf("%s %s: %d %s: %s", method, path, status, http.StatusText(status), raw)
	}
	if out != nil {
		return json.Unmarshal(raw, out)
	}
	return nil
}

func (p *emuProcess) createList(ctx context.Context) (string, error) {
	var list struct {
		ID json.Number `json:"id"`
	}
	if err := p.do(ctx, http.MethodPost, "/lists", map[string]any{"name": "emulator-scale"}, &list); err != nil {
		return "", err
	}
	return list.ID.String(), nil
}

// importCSV runs one ADD import of path into the list and waits for its
// batch to finish.
func (p *emuProcess) importCSV(ctx context.Context, listID, path string) error {
	var imp struct {
		ID json.Number `json:"id"`
	}
	req := map[string]any{"type": "ADD", "delimiter": "44", "encoding": "UTF8", "identityColumn": "email"}
	if err := p.do(ctx, http.MethodPost, "/lists/"+listID+"/imports", req, &imp); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read-only
	var up struct {
		BatchID json.Number `json:"batchId"`
	}
	if err := p.send(ctx, http.MethodPost, "/lists/"+listID+"/recipients/"+imp.ID.String(), "text/csv", f, &up); err != nil {
		return err
	}
	for {
		var batch struct {
			Status string `json:"status"`
			Error  string `json:"error"`
			Failed int64  `json:"failed"`
		}
		if err := p.do(ctx, http.MethodGet, "/batches/"+up.BatchID.String(), nil, &batch); err != nil {
			return err
		}
		switch batch.Status {
		case "FINISHED":
			if batch.Failed > 0 {
				return fmt.Errorf("the import failed %d rows", batch.Failed)
			}
			return nil
		case "FAILED", "ERROR":
			return fmt.Errorf("the import's batch is %s: %s", batch.Status, batch.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// procStatusBytes is a "kB" field of /proc/<pid>/status in bytes, or 0.
func procStatusBytes(pid int, field string) int64 {
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			if f := strings.Fields(v); len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

// dirSignature names, sizes and modification times of the files of dir;
// hidden files (temporary files of a write in progress) only when
// withHidden, as a save is done when the visible files change.
func dirSignature(dir string, withHidden bool) string {
	var sb strings.Builder
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err // the signature so far tells a change as well
		}
		if d.IsDir() || (!withHidden && strings.HasPrefix(d.Name(), ".")) {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&sb, "%s %d %d\n", path, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return sb.String()
}

// waitDirChange waits until dir's signature differs from before.
func waitDirChange(ctx context.Context, dir, before string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for dirSignature(dir, false) == before {
		if time.Now().After(deadline) {
			return fmt.Errorf("the data directory did not change in %s", limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
	return nil
}

// settleDir waits until dir, a write in progress included, has not changed
// for quiet.
func settleDir(ctx context.Context, dir string, quiet time.Duration) error {
	last, since := dirSignature(dir, true), time.Now()
	for time.Since(since) < quiet {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if sig := dirSignature(dir, true); sig != last {
			last, since = sig, time.Now()
		}
	}
	return nil
}

// dirSize is the total size of the files under dir.
func dirSize(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			total += info.Size()
		}
		return err
	})
	return total, err
}
