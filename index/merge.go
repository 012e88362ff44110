package index

import (
	"context"
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// A new index's first build writes all of its passages, a batch (one
// Bleve segment) at a time. With Bleve's merge plan, which keeps a few
// segments for the passages so far, every batch had the merger merge
// segments it had merged before, as the index grew from nothing: a
// fifth of the cpu of a full build of the bench corpus (18 batches, 22
// segments merged in 10 merges). The first build's index is instead
// opened with a plan that leaves the segments as they come, up to
// firstBuildTier of each size, and merged into one at the end
// (mergeFirstBuild), which merges each passage once; the index is then
// opened again with Bleve's plan for the updates that follow.

// firstBuildTier is how many segments of one size the first build
// leaves unmerged: few enough open files however big the folder (a
// tier's ten times the one below it).
const firstBuildTier = 20

// firstBuildConfig is the Bleve configuration an index is created with.
func (ix *Index) firstBuildConfig() map[string]any {
	c := ix.writerConfig()
	c["scorchMergePlanOptions"] = map[string]any{
		"MaxSegmentsPerTier":   firstBuildTier,
		"SegmentsPerMergeTask": firstBuildTier,
		// Every segment counts by its passages: a tier of 20 segments of
		// one passage, then of 10, 100, … (mergeplan.CalcBudget).
		"FloorSegmentSize": 1,
	}
	return c
}

// mergeFirstBuild merges the segments of a first build into one and
// opens the index again with the configuration of an index that is kept
// up to date; the caller then writes to the index, so that its last
// snapshot (the one the next open finds) holds the merged segment.
func (ix *Index) mergeFirstBuild(ctx context.Context) error {
	a, err := ix.b.Advanced()
	if err != nil {
		return fmt.Errorf("merge the new index: %w", err)
	}
	s, ok := a.(*scorch.Scorch)
	if !ok {
		return errors.New("merge the new index: it is not a scorch index")
	}
	one := mergeplan.SingleSegmentMergePlanOptions
	one.SegmentsPerMergeTask = 1 << 10 // all of them in one merge
	if err := s.ForceMerge(ctx, &one); err != nil {
		return fmt.Errorf("merge the new index: %w", err)
	}
	return nil
}

// reopen closes the Bleve index and opens it again for writing, with the
// configuration of an index that is kept up to date.
func (ix *Index) reopen() error {
	ix.bmu.Lock()
	defer ix.bmu.Unlock()
	dir := ix.opts.bleveDir()
	err := ix.b.Close()
	ix.b = nil
	if err != nil {
		return fmt.Errorf("close index %s: %w", dir, err)
	}
	b, err := openBleve(dir, ix.writerConfig(), ix.opts.LockTimeout)
	if err != nil {
		return fmt.Errorf("open index %s again: %w", dir, err)
	}
	ix.b = b
	ix.deferred = false
	return nil
}
