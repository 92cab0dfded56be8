package provider_test

import (
	"testing"

	"github.com/rms-labs/terraform-provider-rms/internal/acctest"
)

func TestMain(m *testing.M) { acctest.Main(m) }
