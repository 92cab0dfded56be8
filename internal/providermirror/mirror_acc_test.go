package providermirror

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
	"github.com/rms-labs/terraform-provider-rms/internal/testpki"
)

// TestAccMirrorLocksAndInstalls is a team's path from a release to its
// pipelines: two platforms' provider zips, named and laid out as
// `make release-snapshot` lays them out, served over HTTPS with a
// certificate authority of the test's own; `providers lock -net-mirror`
// for both platforms; `init` through a CLI configuration whose
// network_mirror serves rms-labs/rms, beside terraform_data; then a
// second working directory with the committed lock file initialises
// with -lockfile=readonly, building nothing.
func TestAccMirrorLocksAndInstalls(t *testing.T) {
	acctest.SkipUnlessAcceptance(t)
	tf := acctest.MustDetectCLI(t)
	const version = "0.1.0"
	p := RMS()
	host := "registry.terraform.io"
	if tf.Name == "OpenTofu" {
		host = "registry.opentofu.org" // where OpenTofu resolves rms-labs/rms
	}
	// The machine's own platform, so init can install, and one more.
	platforms := []string{runtime.GOOS + "_" + runtime.GOARCH, "darwin_arm64"}
	if platforms[0] == platforms[1] {
		platforms[1] = "linux_amd64"
	}

	dist := t.TempDir()
	for _, platform := range platforms {
		buildZip(t, dist, version, platform)
	}
	archives, err := p.Find(dist, version)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dist, "mirror")
	if err := p.Write(root, version, archives, ""); err != nil {
		t.Fatal(err)
	}

	ca := testpki.NewCA(t, "mirror test CA")
	pair := ca.Server(t)
	cert, err := tls.X509KeyPair(pair.CertPEM, pair.KeyPEM)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		served []string
	)
	files := http.FileServer(http.Dir(root))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served = append(served, r.URL.Path)
		mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	mirrorURL := srv.URL + "/"

	home := t.TempDir()
	caFile := filepath.Join(home, "ca.pem")
	if err := os.WriteFile(caFile, ca.CertPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	address := host + "/rms-labs/rms"
	cliConfig := filepath.Join(home, "mirror.tfrc")
	rc := "provider_installation {\n" +
		"  network_mirror {\n    url     = " + strconv.Quote(mirrorURL) + "\n    include = [" + strconv.Quote(address) + "]\n  }\n" +
		"  direct {\n    exclude = [" + strconv.Quote(address) + "]\n  }\n}\n"
	if err := os.WriteFile(cliConfig, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	env := cliEnv(home, cliConfig, caFile)
	config := `terraform {
  required_providers {
    rms = {
      source  = "rms-labs/rms"
      version = "` + version + `"
    }
  }
}

resource "terraform_data" "pipeline" {
  input = "installed from the mirror"
}
`

	first := t.TempDir()
	writeFile(t, filepath.Join(first, "main.tf"), config)
	lockArgs := []string{"providers", "lock", "-no-color", "-net-mirror=" + mirrorURL}
	for _, platform := range platforms {
		lockArgs = append(lockArgs, "-platform="+platform)
	}
	run(t, tf.Path, first, env, append(lockArgs, "rms-labs/rms")...)

	lock, err := os.ReadFile(filepath.Join(first, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatalf("providers lock wrote no lock file: %v", err)
	}
	// From a mirror whose archives are not signed, the CLI keeps the h1:
	// hash of each platform's package it fetched (the zh: hashes of
	// VERSION.json only check the downloads).
	want := make([]string, 0, len(platforms))
	for _, a := range archives {
		want = append(want, packageHashV1(t, a.Path))
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, lockHashes(t, string(lock), address)); diff != "" {
		t.Fatalf("the lock file's hashes of %s (-want h1: of each platform's zip, +got):\n%s\n%s", address, diff, lock)
	}
	if !regexp.MustCompile(`version\s*=\s*"` + regexp.QuoteMeta(version) + `"`).Match(lock) {
		t.Errorf("the lock file does not hold version %s:\n%s", version, lock)
	}
	wantServed := []string{"/" + address + "/index.json", "/" + address + "/" + version + ".json"}
	for _, a := range archives {
		wantServed = append(wantServed, "/"+address+"/"+filepath.Base(a.Path))
	}
	mu.Lock()
	got := slices.Clone(served)
	mu.Unlock()
	if !containsAll(got, wantServed) {
		t.Errorf("providers lock fetched %v from the mirror, want each of %v", got, wantServed)
	}

	run(t, tf.Path, first, env, "init", "-no-color", "-input=false")
	installed := filepath.Join(first, ".terraform", "providers", address, version, platforms[0])
	if _, err := os.Stat(installed); err != nil {
		t.Fatalf("init did not install %s %s from the mirror: %v", address, version, err)
	}

	// A teammate's checkout, or a CI runner: the committed lock file and
	// the configuration, nothing built here.
	second := t.TempDir()
	writeFile(t, filepath.Join(second, "main.tf"), config)
	writeFile(t, filepath.Join(second, ".terraform.lock.hcl"), string(lock))
	out := run(t, tf.Path, second, env, "init", "-no-color", "-input=false", "-lockfile=readonly")
	if !strings.Contains(out, version) {
		t.Errorf("init did not report installing %s:\n%s", version, out)
	}
	after, err := os.ReadFile(filepath.Join(second, ".terraform.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, lock) {
		t.Errorf("init changed the committed lock file:\n%s", after)
	}
	// validate starts the installed provider for its schema: the mirror's
	// binary runs.
	run(t, tf.Path, second, env, "validate", "-no-color")
}

// buildZip builds the provider for platform and zips it as the release
// names it: terraform-provider-rms_VERSION_OS_ARCH.zip holding only
// terraform-provider-rms_vVERSION[.exe]. The flags are the cross-check's
// (scripts/cross-check.sh), so a warm build cache only links.
func buildZip(t *testing.T, dist, version, platform string) {
	t.Helper()
	goos, goarch, _ := strings.Cut(platform, "_")
	exe := "terraform-provider-rms_v" + version
	if goos == "windows" {
		exe += ".exe"
	}
	bin := filepath.Join(t.TempDir(), exe)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	args := []string{"build", "-o", bin, "-ldflags", "-s -w -X main.version=" + version}
	cmdEnv := os.Environ()
	if platform != runtime.GOOS+"_"+runtime.GOARCH {
		// The machine's own platform is built as DevOverrides builds it
		// (cached by the other acceptance tests); another as the
		// cross-check builds it.
		args = append(args, "-trimpath")
		cmdEnv = append(cmdEnv, "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, acctest.ProviderModule)...)
	cmd.Env = cmdEnv
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the provider for %s: %v\n%s", platform, err, out)
	}
	f, err := os.Create(filepath.Join(dist, "terraform-provider-rms_"+version+"_"+platform+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	hdr := &zip.FileHeader{Name: exe, Method: zip.Deflate}
	hdr.SetMode(0o755)
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close() }()
	if _, err := io.Copy(w, in); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// packageHashV1 is the CLI's h1: hash of a provider zip (Go's dirhash
// Hash1 over the zip's files): the SHA-256 of the lines "<sha256 hex>  <name>"
// of its files, sorted by name, in base64.
func packageHashV1(t *testing.T, path string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	files := slices.Clone(zr.File)
	slices.SortFunc(files, func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	summary := sha256.New()
	for _, f := range files {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		_, err = io.Copy(h, r)
		_ = r.Close()
		if err != nil {
			t.Fatal(err)
		}
		_, _ = fmt.Fprintf(summary, "%x  %s\n", h.Sum(nil), f.Name)
	}
	return "h1:" + base64.StdEncoding.EncodeToString(summary.Sum(nil))
}

// lockHashes are the hashes of address's block in a lock file, sorted.
func lockHashes(t *testing.T, lock, address string) []string {
	t.Helper()
	block := regexp.MustCompile(`(?s)provider "` + regexp.QuoteMeta(address) + `" \{.*?hashes = \[(.*?)\]`).FindStringSubmatch(lock)
	if block == nil {
		t.Fatalf("the lock file has no hashes for %s:\n%s", address, lock)
	}
	var hashes []string
	for _, m := range regexp.MustCompile(`"([a-z0-9]+:[^"]+)"`).FindAllStringSubmatch(block[1], -1) {
		hashes = append(hashes, m[1])
	}
	slices.Sort(hashes)
	return hashes
}

// cliEnv is the CLI's environment: a fresh HOME, the test's CLI
// configuration, its certificate authority as the only one trusted (Go's
// SSL_CERT_FILE, on Linux and the BSDs), and no plugin cache.
func cliEnv(home, cliConfig, caFile string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HOME", "TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "SSL_CERT_FILE", "SSL_CERT_DIR",
			"TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR", "TF_LOG", "TF_LOG_PATH":
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"SSL_CERT_FILE="+caFile,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
	)
}

// run runs the CLI in dir and returns its output; it fails the test when
// the command fails.
func run(t *testing.T, tfPath, dir string, env []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tfPath, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(tfPath), strings.Join(args, " "), err, out)
	}
	return string(out)
}

func containsAll(got, want []string) bool {
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}
