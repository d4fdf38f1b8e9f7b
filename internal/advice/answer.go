package advice

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// MaxQuestion bounds a question, characters.
const MaxQuestion = 2000

// Topics the embedded advisor answers, and the words (in the three
// languages) that name them.
var topics = []struct {
	name  string
	words []string
}{
	{"why", []string{"why", "为什么", "為什麼", "为何", "為何", "原因"}},
	{"irrigation", []string{"irrigat", "water", "灌", "浇", "澆", "墒", "缺水"}},
	{"frost", []string{"frost", "freez", "cold", "霜", "冻", "凍", "低温", "低溫"}},
	{"pests", []string{"pest", "insect", "trap", "bug", "scout", "虫", "蟲"}},
	{"stage", []string{"stage", "growth", "gdd", "degree", "生育", "阶段", "階段", "积温", "積溫", "时期", "時期"}},
}

// topicsOf are the topics a question names, in the order above.
func topicsOf(q string) []string {
	q = strings.ToLower(q)
	var out []string
	for _, t := range topics {
		for _, w := range t.words {
			if strings.Contains(q, w) {
				out = append(out, t.name)
				break
			}
		}
	}
	return out
}

// Answer is the embedded advisor's answer to a question, in markdown, from
// the reality and today's tasks (texts by task); it says plainly what it
// cannot answer.
func (s *Service) Answer(r *Reality, tasks []Task, texts []Text, question string, lang i18n.Lang) string {
	T := func(key string, p map[string]any) string { return i18n.T(lang, "advice."+key, p) }
	name := func(id int64) string {
		for _, d := range r.Devices {
			if d.ID == id {
				if d.Name != "" {
					return d.Name
				}
				return d.SN
			}
		}
		return fmt.Sprint(id)
	}
	var b strings.Builder
	para := func(s string) { b.WriteString(s + "\n\n") }
	listTasks := func(kind string) bool {
		found := false
		for i, t := range tasks {
			if kind != "" && t.Kind != kind {
				continue
			}
			found = true
			b.WriteString("**" + texts[i].Title + "**\n\n")
			for _, st := range texts[i].Steps {
				b.WriteString("- " + st + "\n")
			}
			b.WriteString("\n")
		}
		return found
	}
	ts := topicsOf(question)
	if len(ts) == 0 {
		para(T("answer.cannot", nil))
		return b.String()
	}
	for _, topic := range ts {
		switch topic {
		case "why":
			if len(tasks) == 0 {
				para(T("answer.noTasks", nil))
			} else {
				para(T("answer.tasks", nil))
				listTasks("")
			}
			if len(ts) == 1 {
				return b.String()
			}
		case "irrigation":
			if len(r.Water) == 0 {
				para(T("answer.noWater", nil))
				continue
			}
			if !listTasks(KindIrrigate) {
				for _, w := range r.Water {
					para(T("answer.irrigateNo", map[string]any{"device": name(w.DeviceID), "depletion": num(&w.Depletion, 1), "raw": num(&w.RAW, 1)}))
				}
			}
		case "frost":
			if r.Forecast == nil {
				para(T("answer.noForecast", nil))
				continue
			}
			if !listTasks(KindFrost) {
				lowest := 100.0
				for i, d := range r.Forecast.Days {
					if i < riskDays && d.TempMin != nil && *d.TempMin < lowest {
						lowest = *d.TempMin
					}
				}
				para(T("answer.noFrost", map[string]any{"temp": num(&lowest, 1)}))
			}
		case "pests":
			if len(r.Insects) == 0 {
				para(T("answer.noTrap", nil))
				continue
			}
			if !listTasks(KindScout) {
				for _, in := range r.Insects {
					para(T("answer.noPests", map[string]any{"count": num(&in.Windows[0], 0), "base": num(&in.Base, 0)}))
				}
			}
		case "stage":
			c := r.Crop
			if c == nil {
				para(T("answer.noCrop", nil))
				continue
			}
			para(T("answer.stage", map[string]any{"crop": c.CropName, "day": c.DayOfSeason, "stage": T("stage."+c.Stage, nil),
				"kc": num(c.Kc, 2), "ends": c.StageEnds}))
			if c.GDD != nil {
				para(T("answer.gdd", map[string]any{"gdd": num(&c.GDD.Total, 1), "base": c.GDD.Base, "days": c.GDD.Days}))
			}
		}
	}
	return b.String()
}

// Grounding is the context a model gets with a question: the instructions,
// then the farm's reality, today's tasks with their arithmetic and the
// season plan as JSON tool results it must cite.
func Grounding(r *Reality, tasks []Task, texts []Text, plan *Strategy, lang i18n.Lang) []Message {
	type taskCtx struct {
		ID    int64    `json:"id"`
		Kind  string   `json:"kind"`
		Title string   `json:"title"`
		Steps []string `json:"steps"`
		Facts Facts    `json:"facts"`
	}
	tc := make([]taskCtx, len(tasks))
	for i, t := range tasks {
		tc[i] = taskCtx{ID: t.ID, Kind: t.Kind, Title: texts[i].Title, Steps: texts[i].Steps, Facts: t.Facts}
	}
	reality, _ := json.Marshal(r)
	taskJSON, _ := json.Marshal(tc)
	planJSON, _ := json.Marshal(plan)
	language := map[i18n.Lang]string{i18n.ZhCN: "Simplified Chinese", i18n.ZhTW: "Traditional Chinese", i18n.EnUS: "English"}[lang]
	system := "You are the farm advisor of Fieldwatch, a farm monitoring console. Answer the farmer's question in " + language +
		", in markdown, only from the facts below: the farm's reality (root-zone water by the FAO-56 water balance, ET, rain, crop stage " +
		"and growing degree days, forecast frost and heat, insect trap trends, alerts, data gaps; each fact lists the readings it used), " +
		"today's tasks from the deterministic advisor with their arithmetic, and the season plan. Cite the facts you use (the item and " +
		"its numbers, e.g. \"depletion 41.4 mm ≥ RAW 30 mm\"). If the facts do not answer the question, say so plainly; do not invent " +
		"readings. Times are milliseconds since the epoch; the local day is given."
	return []Message{
		{Role: "system", Content: system},
		{Role: "system", Content: "reality: " + string(reality)},
		{Role: "system", Content: "tasks_today: " + string(taskJSON)},
		{Role: "system", Content: "strategy: " + string(planJSON)},
	}
}
