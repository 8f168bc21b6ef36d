package datagen

// Rand is a small seeded pseudo-random generator (splitmix64). It is part of
// the corpus contract: the same seed gives the same stream on every platform
// and Go version, which math/rand does not promise.
type Rand struct{ state uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint32 returns the next 32 random bits.
func (r *Rand) Uint32() uint32 { return uint32(r.Uint64() >> 32) }

// Intn returns a number in [0, n). n must be positive.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		panic("datagen: Intn with n <= 0")
	}
	// Multiply-shift keeps the result unbiased enough for test data and,
	// unlike a modulo of a float, is exact integer arithmetic.
	hi, _ := mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// Range returns a number in [lo, hi].
func (r *Rand) Range(lo, hi int) int { return lo + r.Intn(hi-lo+1) }

// Chance reports true with probability percent/100.
func (r *Rand) Chance(percent int) bool { return r.Intn(100) < percent }

// Unit returns a float64 in [0, 1) with 53 random bits (exact arithmetic).
func (r *Rand) Unit() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Pick returns one of the strings.
func (r *Rand) Pick(list []string) string { return list[r.Intn(len(list))] }

// mul64 is bits.Mul64, written out so the package has no version-specific
// dependency.
func mul64(x, y uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	x0, x1 := x&mask32, x>>32
	y0, y1 := y&mask32, y>>32
	w0 := x0 * y0
	t := x1*y0 + w0>>32
	w1 := t & mask32
	w2 := t >> 32
	w1 += x0 * y1
	hi = x1*y1 + w2 + w1>>32
	lo = x * y
	return
}
