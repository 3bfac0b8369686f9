package steps

import (
	"context"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUnusualGenerators: the generators of valid but unusual input make what
// they say, fresh each time.
func TestUnusualGenerators(t *testing.T) {
	st := offlineState(t)
	for _, n := range []int{0, 1, 6, 9, 10, 255, 256} {
		s, err := st.generate("unicode:" + strconv.Itoa(n))
		if err != nil || utf8.RuneCountInString(s) != n {
			t.Fatalf("unicode:%d = %q (%d characters), %v", n, s, utf8.RuneCountInString(s), err)
		}
		rest := s
		if n >= len(genPrefix) {
			if !strings.HasPrefix(s, genPrefix) {
				t.Errorf("unicode:%d = %q lacks the prefix", n, s)
			}
			rest = strings.TrimPrefix(s, genPrefix)
		}
		for _, r := range rest {
			if r < utf8.RuneSelf || !strings.ContainsRune(nonASCII, r) {
				t.Errorf("unicode:%d holds %q, not one of the non-ASCII letters", n, r)
			}
		}
		if n > 0 && len(rest) < 2*utf8.RuneCountInString(rest) {
			t.Errorf("unicode:%d = %q: %d bytes, want at least two a letter", n, s, len(s))
		}
	}
	forms := map[string]*regexp.Regexp{
		"email:plus":      regexp.MustCompile(`^contract-[a-z0-9]{12}\+[a-z0-9]{6}@example\.com$`),
		"email:dots":      regexp.MustCompile(`^contract-[a-z0-9]{6}\.[a-z0-9]{6}\.[a-z0-9]{4}@example\.com$`),
		"email:subdomain": regexp.MustCompile(`^contract-[a-z0-9]{12}@contract-[a-z0-9]{6}\.example\.com$`),
		"HEX:40":          regexp.MustCompile(`^[0-9A-F]{40}$`),
	}
	for gen, re := range forms {
		a, err := st.generate(gen)
		b, _ := st.generate(gen)
		if err != nil || !re.MatchString(a) || a == b {
			t.Errorf("gen:%s = %q then %q, %v", gen, a, b, err)
		}
		if strings.HasPrefix(gen, "email") {
			if addr, err := mail.ParseAddress(a); err != nil || addr.Address != a {
				t.Errorf("gen:%s = %q is not a plain address: %v", gen, a, err)
			}
		}
	}
	if _, err := st.generate("email:tag"); err == nil {
		t.Error("gen:email:tag is no generator but gave a value")
	}
	got, err := st.substText(context.Background(), "{{upper:marketappHash}} {{upper:text}}")
	if want := "FECAF482F29181490AE5ECFB2790186CE7F82078 X\"Y"; err != nil || got != want {
		t.Errorf("upper: %q, %v; want %q", got, err, want)
	}
	if _, err := st.substText(context.Background(), "{{upper:nothing}}"); err == nil {
		t.Error("upper: of an unknown variable substituted")
	}
}

// TestCatalogueVariables: the entries of the profile's catalogues by
// position, with the defaults of a profile that leaves them empty.
func TestCatalogueVariables(t *testing.T) {
	checkSubstJSON(t, []substCase{
		{"defaults", func(*Profile) {},
			`["{{currencies.1.id}}", "{{currencies.2.code}}", "{{plans.3.id}}", "{{platforms.2.id}}", "{{platforms.2.name}}"]`,
			`[1, "EUR", 3, 2, "iOS"]`},
		{"plan flags", func(*Profile) {},
			`[{"isLite": "{{plans.1.isLite}}", "isPro": "{{plans.1.isPro}}"}, {"isPro": "{{plans.2.isPro}}", "isDynamic": "{{plans.2.isDynamic}}"}]`,
			`[{"isLite": true, "isPro": false}, {"isPro": true, "isDynamic": false}]`},
		{"a plan with no flag", func(p *Profile) { p.Plans = "7:none,8:dynamic" },
			`["{{plans.1.id}}", "{{plans.1.isLite}}", "{{plans.1.isPro}}", "{{plans.1.isDynamic}}", "{{plans.2.isDynamic}}"]`,
			`[7, false, false, false, true]`},
		{"another target's catalogues", func(p *Profile) { p.Currencies, p.Platforms = "10:chf, 20:JPY", "5:iOS,6:Android" },
			`"{{currencies.1.code}}-{{currencies.2.id}}-{{platforms.1.name}}"`, `"chf-20-iOS"`},
	})
	st := offlineState(t)
	for in, want := range map[string]string{
		"{{currencies.4.id}}":    "needs 4 of the target's currencies (the profile gives 3)",
		"{{currencies.0.id}}":    "from 1",
		"{{currencies.x.id}}":    "from 1",
		"{{currencies.1}}":       "from 1",
		"{{currencies.1.name}}":  `unknown field "name"`,
		"{{plans.1.code}}":       `unknown field "code"`,
		"{{platforms.2.isLite}}": `unknown field "isLite"`,
	} {
		if _, err := st.substText(context.Background(), in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", in, err, want)
		}
	}
}
