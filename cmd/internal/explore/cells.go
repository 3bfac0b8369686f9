package explore

// The cells of the catalogue: every (operation, input position, operator)
// that the target's profile makes meaningful.

import (
	"strings"

	"github.com/pricing-contract/pricing-contract/steps/target"
)

// cells are every cell of the catalogue that the target's profile makes
// meaningful (no POST /clients where a user holds one client, no hash where
// a marketplace app has one app).
func (wd *world) cells() []Cell {
	var out []Cell
	for _, op := range Ops {
		if op == OpPostClient && !wd.several {
			continue
		}
		for _, f := range bodyFields(op) {
			if !wd.fieldFits(op, f) {
				continue
			}
			if op == OpLogin {
				out = append(out, loginCells(f, wd.form)...)
				continue
			}
			for _, o := range bodyOps {
				if o.On(f) {
					out = append(out, Cell{op, f.path, o.Name})
				}
			}
		}
		if op.Authenticated() || op == OpPlatforms {
			for _, scheme := range credSchemes {
				for _, o := range credOps {
					// Another account's credential beside the caller's
					// where either account's answer is one the reference
					// can hold: no create, which would be the other's.
					if credOpFits(scheme, o.Name) && (o.Name != credBesideOther || op != OpPostClient && op != OpPostApp) {
						out = append(out, Cell{op, posCredential + scheme, o.Name})
					}
				}
			}
			out = append(out, Cell{op, "credential", noCred.Name})
		}
		if op == OpLogin {
			for _, scheme := range credSchemes {
				out = append(out, Cell{op, posCredential + scheme, credAtLogin.Name})
			}
		}
		if op == OpPutUser || op == OpPutClient {
			for _, o := range pathOps {
				// The client after the caller's may be one the caller made
				// in an earlier sequence: the next id is a user's only.
				if o.Name == "created" && op == OpPutClient || o.Name == "neighbour" && op == OpPutUser ||
					o.Name != "created" && o.Name != "neighbour" {
					out = append(out, Cell{op, posPath, o.Name})
				}
			}
		}
		for _, o := range versionOps {
			if o.Name != "other-served-form" || len(wd.forms) > 1 {
				out = append(out, Cell{op, posVersion, o.Name})
			}
		}
		if op.HasBody() && op != OpLogin {
			for _, o := range typeOps {
				out = append(out, Cell{op, posContentType, o.Name})
			}
		}
		for _, o := range acceptOps {
			out = append(out, Cell{op, posAccept, o.Name})
		}
		if op.HasBody() {
			for _, o := range transferOps {
				out = append(out, Cell{op, posTransfer, o.Name})
			}
		}
		if op.HasBody() {
			for _, o := range wireOps {
				if wireFits(op, o.Name, wd.form) {
					out = append(out, Cell{op, posBody, o.Name})
				}
			}
		}
	}
	return out
}

// loginCells are the cells of a login's field f, its body a form or JSON.
// A member left out or null is a JSON body's: a form's is written
// otherwise (the reproducer writes JSON).
func loginCells(f bodyField, form bool) []Cell {
	var out []Cell
	for _, o := range loginOps[f.path] {
		if !form || !strings.HasSuffix(o.Name, "-absent") && !strings.HasSuffix(o.Name, "-null") {
			out = append(out, Cell{OpLogin, posLogin + f.path, o.Name})
		}
	}
	return out
}

// fieldFits: a field the profile's choices let the explorer send.
func (wd *world) fieldFits(op Op, f bodyField) bool {
	if strings.Contains("."+f.path+".", ".marketapp.") && !wd.byHash && !wd.hashOnce {
		return false
	}
	if strings.HasPrefix(f.path, "client") && !wd.several {
		return false
	}
	if f.path == "phoneCountry" && wd.p.PhoneCountryField == target.PhoneCountryFlat {
		// The target takes phoneCountryId: there is no object to change,
		// only its id.
		return false
	}
	return true
}

// crossCell reports whether a cell reaches the other account's resources:
// its user or client in the path, its credentials at a login, its email.
func crossCell(c Cell) bool {
	switch c.Operator {
	case "other", "neighbour", "login-email-other-account", "login-password-other-account", "email-taken":
		return true
	}
	return false
}

// laneCells are the cells a lane of one account draws from.
func laneCells(cells []Cell) []Cell {
	var out []Cell
	for _, c := range cells {
		if !crossCell(c) {
			out = append(out, c)
		}
	}
	return out
}

// cellsOf are the cells a step exercises: the one it aims at, the operators
// that ride along, and the forms of its other positions as the spec writes
// them (a valid credential, the caller's own id).
func cellsOf(st Step, aim Cell, applied bool) []Cell {
	var out []Cell
	if applied {
		out = append(out, aim)
	}
	add := func(c Cell) {
		for _, x := range out {
			if x == c {
				return
			}
		}
		out = append(out, c)
	}
	for _, m := range st.Muts {
		add(Cell{st.Op, m.Field, m.Op})
	}
	switch {
	case st.Op == OpLogin:
		if aim.Position != posLogin+"email" {
			add(Cell{st.Op, posLogin + "email", "as-specified"})
		}
	case st.Cred.Scheme == "none":
		add(Cell{st.Op, "credential", noCred.Name})
	default:
		add(Cell{st.Op, posCredential + st.Cred.Scheme, st.Cred.Op})
	}
	if st.Path != "" {
		add(Cell{st.Op, posPath, st.Path})
	}
	if st.Wire != "" {
		add(Cell{st.Op, posBody, st.Wire})
	}
	return out
}
