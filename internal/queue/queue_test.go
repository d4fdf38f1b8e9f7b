package queue

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// A woken loop drains every due item at once, stops at the first error
// (reported) or empty claim, and runs its tick; it returns when ctx ends.
func TestLoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	due := atomic.Int32{}
	due.Store(3)
	var ran, ticks atomic.Int32
	errs := make(chan error, 8)
	fail := atomic.Bool{}
	wake := NewSignal(1)
	done := make(chan struct{})
	stepped := make(chan struct{}, 64)
	go func() {
		Loop{
			Poll: time.Hour, // only wake-ups, in this test
			Wake: wake,
			Step: func(context.Context) (bool, error) {
				defer func() { stepped <- struct{}{} }()
				if fail.Load() {
					return false, errors.New("store down")
				}
				if due.Load() == 0 {
					return false, nil
				}
				due.Add(-1)
				ran.Add(1)
				return true, nil
			},
			OnError: func(err error) { errs <- err },
			OnTick:  func(context.Context) { ticks.Add(1) },
		}.Run(ctx)
		close(done)
	}()
	// The first pass drains the three due items and finds the queue empty: four steps.
	for range 4 {
		<-stepped
	}
	if ran.Load() != 3 {
		t.Fatalf("ran %d items, want 3", ran.Load())
	}
	// Two more come due and a wake-up arrives: both run.
	due.Store(2)
	wake.Wake()
	for range 3 {
		<-stepped
	}
	if ran.Load() != 5 {
		t.Fatalf("ran %d items, want 5", ran.Load())
	}
	// A failing claim is reported and ends the pass.
	fail.Store(true)
	wake.Wake()
	<-stepped
	if err := <-errs; err.Error() != "store down" {
		t.Fatalf("error: %v", err)
	}
	if ticks.Load() != 0 {
		t.Errorf("%d ticks in an hour's poll", ticks.Load())
	}
	cancel()
	<-done
}

func TestLoop_Ticks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ticked := make(chan struct{}, 1)
	go Loop{
		Poll:   time.Millisecond,
		Step:   func(context.Context) (bool, error) { return false, nil },
		OnTick: func(context.Context) { Signal(ticked).Wake() },
	}.Run(ctx)
	<-ticked
}

// Wake never blocks: extra wake-ups beyond the signal's room are dropped.
func TestSignal(t *testing.T) {
	s := NewSignal(2)
	for range 5 {
		s.Wake()
	}
	if len(s) != 2 {
		t.Fatalf("%d pending wake-ups, want 2", len(s))
	}
	if len(NewSignal(0)) != 0 || cap(NewSignal(0)) != 1 {
		t.Fatal("a signal holds at least one wake-up")
	}
}
