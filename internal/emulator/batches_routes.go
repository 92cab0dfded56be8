package emulator

// The routes of the batches domain: listing batches and reading one.

import (
	"net/http"
	"slices"
	"strings"

	"github.com/rms-labs/terraform-provider-rms/internal/emulator/apierr"
)

func (s *batchesAPI) registerBatches() {
	s.handleJSON("GET /rest/{customerid}/batches", s.listBatches)
	s.handleJSON("GET /rest/{customerid}/batches/{batchId}", s.getBatch)
}

// listBatches answers the account's batches in ascending id order, paged
// like every collection, optionally only those of one type. The interface
// shows no such call; it is a documented convention so that a client whose
// start of a batch had an unknown outcome can find the batch it made.
func (s *batchesAPI) listBatches(w http.ResponseWriter, r *http.Request) *apierr.Error {
	if err := s.refuseListing(r); err != nil {
		return err
	}
	page, pageSize, err := s.pageParams(r)
	if err != nil {
		return err
	}
	typ := r.URL.Query().Get("type")
	if r.URL.Query().Has("type") && !slices.Contains(batchTypes, typ) {
		return apierr.FieldError("type", "type %q is not a batch type; one of %s", typ, strings.Join(batchTypes, ", "))
	}
	s.advanceBatches()
	all := s.store.Batches.All(typ)
	views := []any{}
	if from := pageOffset(page, pageSize); from < len(all) {
		for _, b := range all[from:min(len(all), from+pageSize)] {
			views = append(views, s.presentBatch(viewOfBatch(b, s.opts.CustomerID)))
		}
	}
	s.setTotal(w, len(all))
	s.writeJSON(w, http.StatusOK, views)
	return nil
}

func (s *batchesAPI) getBatch(w http.ResponseWriter, r *http.Request) *apierr.Error {
	b, err := s.lookupBatch(r)
	if err != nil {
		return err
	}
	s.writeJSON(w, http.StatusOK, s.presentBatch(viewOfBatch(b, s.opts.CustomerID)))
	return nil
}
