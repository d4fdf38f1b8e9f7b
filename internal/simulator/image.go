package simulator

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"time"
)

// Camera images: a small generated scene of what the device's camera sees, a
// sky over a field. The insect trap's picture shows the day's catch so far as
// blobs, one per insect counted; the seedling monitor's shows crop rows whose
// size and colour follow the local crop calendar (winter wheat, then summer
// maize). Light follows the sun: dim and grey at night under the camera's
// fill light, overcast and streaked in rain.

const (
	imageW, imageH = 320, 240
	horizon        = 92 // row of the horizon
)

// Image returns a JPEG picture for camera types, nil for others. It depends
// only on the seed and at, not on earlier requests.
func (s *Sim) Image(at time.Time) []byte {
	if !s.d.Type.Camera {
		return nil
	}
	s.mu.Lock()
	catch := -1
	if s.insects != nil {
		catch = s.insects.soFar(at)
	}
	s.mu.Unlock()

	return render(s.d.Seed, s.d.Lat, s.d.Lng, at, catch)
}

// Scene is how a picture was taken: the exposure (0.35 at night under the
// fill light, 1 in full daylight) and whether it rained.
type Scene struct {
	Light   float64
	Raining bool
}

// TrapPicture is the picture an insect trap with this seed at lat, lng
// takes at time at when catch insects lie on it: the same scene Image
// draws, with the catch given rather than simulated. The AI lab's counter
// is trained and checked on these (tools/ailab).
func TrapPicture(seed int64, lat, lng float64, at time.Time, catch int) []byte {
	return render(seed, lat, lng, at, max(catch, 0))
}

// SceneAt is the light and rain of a camera's picture at lat, lng at time at.
func SceneAt(lat, lng float64, at time.Time) Scene {
	w := weatherAt(at, lat, lng)
	return Scene{Light: 0.35 + 0.65*clamp(w.solar/350, 0, 1), Raining: w.raining}
}

// render draws the scene at at; catch < 0 draws the crop instead of a trap.
func render(seed int64, lat, lng float64, at time.Time, catch int) []byte {
	w := weatherAt(at, lat, lng)
	img := image.NewRGBA(image.Rect(0, 0, imageW, imageH))
	// Exposure: auto-exposure keeps daylight scenes bright; at night only
	// the fill light remains and colours wash out.
	light := 0.35 + 0.65*clamp(w.solar/350, 0, 1)
	sat := clamp(w.solar/150, 0.15, 1)
	paintScene(img, &w, light, sat)

	if catch >= 0 {
		drawInsects(img, seed, cstDay(at), catch)
	} else {
		drawCrop(img, seed, dayOfYear(at), light, sat)
	}
	r := rand.New(rand.NewPCG(uint64(seed), hash(0x1a6e, uint64(at.Unix()))))
	if w.raining {
		drawRain(img, r)
	}
	addNoise(img, r)

	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		return nil // cannot happen with an in-memory RGBA image
	}
	return buf.Bytes()
}

// paintScene fills the sky and ground gradients.
func paintScene(img *image.RGBA, w *weather, light, sat float64) {
	// Clear sky: deep blue overhead, paler at the horizon; cloud greys it.
	top := mixRGB(rgb{70, 130, 210}, rgb{150, 155, 165}, w.cloud)
	low := mixRGB(rgb{175, 205, 235}, rgb{190, 192, 198}, w.cloud)
	// Loam: lighter far away (haze, grazing light), darker and warmer near.
	far := rgb{150, 128, 100}
	near := rgb{105, 80, 55}
	if w.rainInfl > 0.5 {
		far, near = mixRGB(far, rgb{95, 80, 65}, 0.6), mixRGB(near, rgb{70, 52, 38}, 0.6)
	}
	for y := range imageH {
		var c rgb
		if y < horizon {
			c = mixRGB(top, low, float64(y)/horizon)
		} else {
			c = mixRGB(far, near, float64(y-horizon)/float64(imageH-horizon))
		}
		c = grade(c, light, sat)
		for x := range imageW {
			img.SetRGBA(x, y, c.rgba())
		}
	}
}

// drawInsects draws n insects on the trap's catch. Insect i of a day always
// lands at the same place, so the picture fills up as the day goes on.
func drawInsects(img *image.RGBA, seed, day int64, n int) {
	for i := range n {
		r := rand.New(rand.NewPCG(uint64(seed), hash(0x1a5ec7, uint64(day), uint64(i))))
		x := between(r, 8, imageW-8)
		y := between(r, horizon+10, imageH-6)
		// Perspective: insects nearer the camera look bigger.
		scale := 0.6 + 0.8*(y-horizon)/float64(imageH-horizon)
		angle := between(r, 0, math.Pi)
		body := mixRGB(rgb{60, 45, 30}, rgb{120, 95, 50}, r.Float64()) // moths: brown to straw
		fillEllipse(img, x, y, 3.5*scale, 1.6*scale, angle, body, 0.95)
		hx, hy := x+3.2*scale*math.Cos(angle), y+3.2*scale*math.Sin(angle)
		fillEllipse(img, hx, hy, 1.2*scale, 1.2*scale, 0, rgb{25, 20, 15}, 0.95)
		// Wings folded over the body, a little lighter.
		fillEllipse(img, x-0.8*scale*math.Cos(angle), y-0.8*scale*math.Sin(angle),
			2.8*scale, 2.2*scale, angle, mixRGB(body, rgb{200, 185, 150}, 0.3), 0.5)
	}
}

// cropStage is the crop at day of year doy: its size (0 bare, 1 full
// grown) and how far it has ripened (0 green, 1 ready to harvest). The
// rotation is the plain's: winter wheat sown early October, dormant through
// the winter, harvested early June; summer maize sown right after, harvested
// late September.
func cropStage(doy float64) (size, ripe float64, maize bool) {
	switch {
	case doy >= 172 && doy < 275: // maize
		size = clamp((doy-172)/58, 0.05, 1)
		ripe = clamp((doy-250)/25, 0, 1)
		return size, ripe, true
	case doy >= 290: // wheat emerged, autumn tillering
		return clamp(0.05+(doy-290)/40*0.15, 0.05, 0.2), 0, false
	case doy < 60: // winter dormancy
		return 0.2, 0.15, false // frost-tinged leaves
	case doy < 158: // greening, jointing, heading, ripening
		size = clamp(0.2+(doy-60)/70*0.8, 0.2, 1)
		ripe = clamp((doy-138)/20, 0, 1)
		return size, ripe, false
	}
	return 0, 0, false // between harvest and emergence: bare soil
}

// drawCrop draws rows of plants receding to the horizon.
func drawCrop(img *image.RGBA, seed int64, doy, light, sat float64) {
	// Fields are sown a few days apart.
	shift := float64(hash(0x50a, uint64(seed))%11) - 5
	size, ripe, maize := cropStage(math.Mod(doy-shift+365, 365))
	if size <= 0 {
		return
	}
	green := mixRGB(rgb{55, 135, 45}, rgb{190, 165, 70}, ripe)
	r := rand.New(rand.NewPCG(uint64(seed), 0xc409))
	// Rows: from the horizon to the bottom, spacing growing with
	// nearness (a simple perspective).
	for y := float64(horizon + 4); y < imageH+10; {
		near := (y - horizon) / float64(imageH-horizon)
		spacing := 6 + 40*near
		if maize {
			spacing *= 1.4
		}
		plantW := (2 + 14*near) * size
		for x := between(r, 0, spacing); x < imageW+spacing; x += spacing * between(r, 0.85, 1.15) {
			c := grade(mixRGB(green, rgb{35, 90, 30}, 0.3*r.Float64()), light, sat)
			if maize {
				// A stem with leaves arching out to alternate sides; full-grown
				// maize stands taller than the rows are wide.
				h := plantW * 3.5
				fillEllipse(img, x, y-h/2, plantW*0.12, h/2, 0, c, 0.9)
				for k := range 4 {
					side := float64(1 - 2*(k%2))
					a := side * (math.Pi/6 + 0.15*r.NormFloat64())
					ly := y - h*(0.2+0.2*float64(k))
					fillEllipse(img, x+side*plantW*0.45, ly, plantW*0.55, plantW*0.1, a, c, 0.85)
				}
			} else {
				// Wheat: a tussock of thin blades.
				for range 3 {
					a := math.Pi/2 + 0.5*r.NormFloat64()
					fillEllipse(img, x+0.3*plantW*r.NormFloat64(), y-plantW*0.6, plantW*0.12, plantW*0.8, a-math.Pi/2, c, 0.85)
				}
			}
		}
		y += math.Max(2, spacing*0.35)
	}
}

// drawRain draws faint falling streaks.
func drawRain(img *image.RGBA, r *rand.Rand) {
	for range 260 {
		x, y := between(r, 0, imageW), between(r, 0, imageH)
		for k := range 7 {
			px, py := int(x+float64(k)*0.35), int(y+float64(k))
			if px >= 0 && px < imageW && py >= 0 && py < imageH {
				blend(img, px, py, rgb{215, 220, 230}, 0.35)
			}
		}
	}
}

// addNoise adds the sensor's grain.
func addNoise(img *image.RGBA, r *rand.Rand) {
	for i := 0; i < len(img.Pix); i += 4 {
		d := int(r.Uint32()%9) - 4
		for c := range 3 {
			img.Pix[i+c] = uint8(clampInt(int(img.Pix[i+c])+d, 0, 255))
		}
	}
}

// fillEllipse blends an ellipse of radii rx, ry rotated by angle, centred at (cx, cy).
func fillEllipse(img *image.RGBA, cx, cy, rx, ry, angle float64, c rgb, alpha float64) {
	ext := math.Max(rx, ry) + 1
	cos, sin := math.Cos(angle), math.Sin(angle)
	for y := int(cy - ext); y <= int(cy+ext); y++ {
		for x := int(cx - ext); x <= int(cx+ext); x++ {
			if x < 0 || y < 0 || x >= imageW || y >= imageH {
				continue
			}
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			u, v := (dx*cos+dy*sin)/rx, (-dx*sin+dy*cos)/ry
			if u*u+v*v <= 1 {
				blend(img, x, y, c, alpha)
			}
		}
	}
}

func blend(img *image.RGBA, x, y int, c rgb, alpha float64) {
	i := img.PixOffset(x, y)
	for k, v := range [3]float64{c.r, c.g, c.b} {
		old := float64(img.Pix[i+k])
		img.Pix[i+k] = uint8(clamp(old+(v-old)*alpha, 0, 255))
	}
}

type rgb struct{ r, g, b float64 }

func mixRGB(a, b rgb, t float64) rgb {
	t = clamp(t, 0, 1)
	return rgb{a.r + (b.r-a.r)*t, a.g + (b.g-a.g)*t, a.b + (b.b-a.b)*t}
}

// grade applies exposure (light) and saturation to c.
func grade(c rgb, light, sat float64) rgb {
	grey := 0.3*c.r + 0.59*c.g + 0.11*c.b
	c = mixRGB(rgb{grey, grey, grey}, c, sat)
	return rgb{c.r * light, c.g * light, c.b * light}
}

func (c rgb) rgba() color.RGBA {
	return color.RGBA{uint8(clamp(c.r, 0, 255)), uint8(clamp(c.g, 0, 255)), uint8(clamp(c.b, 0, 255)), 255}
}
