package httpapi

import (
	"testing"
	"time"
)

func TestDayCache(t *testing.T) {
	var c dayCache
	now := time.Now()
	k := dayKey{account: 1, day: 100}
	if _, ok := c.get(k, now); ok {
		t.Fatal("an empty cache answers")
	}
	c.put(k, []placeDTO{{ID: 7, Value: 1.5}}, now.Add(time.Minute))
	if v, ok := c.get(k, now); !ok || len(v) != 1 || v[0].ID != 7 {
		t.Fatalf("get %v %v", v, ok)
	}
	if _, ok := c.get(dayKey{account: 2, day: 100}, now); ok {
		t.Fatal("another account's day answers")
	}
	if _, ok := c.get(k, now.Add(2*time.Minute)); ok {
		t.Fatal("an expired entry answers")
	}
	// Expired entries leave when another is put.
	c.put(dayKey{account: 1, day: 50}, nil, now.Add(-time.Second))
	c.put(dayKey{account: 3, day: 100}, nil, now.Add(time.Minute))
	if _, ok := c.m[dayKey{account: 1, day: 50}]; ok || len(c.m) != 2 {
		t.Fatalf("entries %v", c.m)
	}
}
