package estimator

// ReferenceMethod is the consistent estimator of G_U that SPEC §5
// recommends for how pages are observed (docs/methods.md#recommendation):
// ages observed (Last-Modified) → M2, consistent under any revisit
// distribution; constant delays → M4, Δ-consistent, or M5 when only
// traces collected by M3 exist (oldM3), which M5 corrects; random delays
// without ages → M6, consistent as h → 0.
func ReferenceMethod(ages, constant, oldM3 bool) string {
	switch {
	case ages:
		return MethodM2
	case constant && oldM3:
		return MethodM5
	case constant:
		return MethodM4
	}
	return MethodM6
}

// ReferenceAmong is ReferenceMethod applied to a set of estimates, where
// the scenario is read off the methods present (have): ages when M2 was
// estimated, old M3 traces when the delays are constant and M5 was
// estimated without M4. When the scenario's method is absent, M6 — which
// SPEC §5 also counts consistent under constant delays — if present; ""
// when neither is.
func ReferenceAmong(have func(method string) bool, constant bool) string {
	m := ReferenceMethod(have(MethodM2), constant, constant && !have(MethodM4) && have(MethodM5))
	switch {
	case have(m):
		return m
	case have(MethodM6):
		return MethodM6
	}
	return ""
}
