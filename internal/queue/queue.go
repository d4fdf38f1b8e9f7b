// Package queue runs the loop of a work queue kept in a table: claim and
// run due items until none is left, then wait for a wake-up or the next
// poll, until the context ends. Several processes may drain the same table;
// the claim (a lease in the store) keeps an item to one of them.
package queue

import (
	"context"
	"time"
)

// Loop drains a queue.
type Loop struct {
	// Poll is how often due items are looked for without a wake-up: items
	// that come due later (retries) and items added by another process.
	Poll time.Duration
	// Wake is a wake-up (Signal's channel); nil waits for the poll only.
	Wake <-chan struct{}
	// Step claims and runs one due item; more is false when none was due.
	Step func(ctx context.Context) (more bool, err error)
	// OnError gets Step's errors while the context is alive; the loop then
	// waits as if the queue were empty.
	OnError func(error)
	// OnTick runs at each poll, before the queue is drained again (nil: nothing).
	OnTick func(ctx context.Context)
}

// Run drains the queue until ctx ends.
func (l Loop) Run(ctx context.Context) {
	t := time.NewTicker(l.Poll)
	defer t.Stop()
	for {
		for ctx.Err() == nil {
			more, err := l.Step(ctx)
			if err != nil {
				if ctx.Err() == nil && l.OnError != nil {
					l.OnError(err)
				}
				break
			}
			if !more {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if l.OnTick != nil {
				l.OnTick(ctx)
			}
		case <-l.Wake:
		}
	}
}

// Signal is a wake-up that never blocks its sender: it holds as many
// pending wake-ups as it has room for, and drops the rest (the loops it
// wakes are about to look anyway).
type Signal chan struct{}

// NewSignal returns a signal holding up to n pending wake-ups (at least 1).
func NewSignal(n int) Signal { return make(Signal, max(n, 1)) }

// Wake wakes one waiting loop, if any has room to be woken.
func (s Signal) Wake() {
	select {
	case s <- struct{}{}:
	default:
	}
}
