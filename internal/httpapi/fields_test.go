package httpapi

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// TestEveryFieldHasALabel finds, in the source of every package, each field
// name an error can carry (the first argument of errs.Invalid, the second
// of errs.OnField) and checks that every language labels it (field.<name>),
// so no message shows a raw key. A name that comes through a function's
// parameter is followed to that function's callers, a variable to the
// values assigned to it or the literal it ranges over. A JSON path such as
// nodes[0].depth is shown as it is and needs no label. A site whose name
// the scan cannot follow fails the test: make it a literal, or follow it.
func TestEveryFieldHasALabel(t *testing.T) {
	fset := token.NewFileSet()
	packageValues = map[string]ast.Expr{}
	var funcs []*ast.FuncDecl
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		// Packages such as wechattest are servers that tests talk to, speaking
		// another service's wire format: no answer of ours carries their names.
		if err == nil && d.IsDir() && path != ".." && strings.HasSuffix(d.Name(), "test") {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Body != nil {
					funcs = append(funcs, decl)
				}
			case *ast.GenDecl:
				addValues(packageValues, decl)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// Sites that name whatever query parameter the client sent: a name
	// without a label is shown as sent.
	anyName := map[string]bool{"checkQuery": true}
	fields := map[string]string{} // name → where it was found
	type sink struct {
		fn  string // function name as called: Invalid, OnField, queryInt …
		pkg string // its package's name at a call site, "" for a local call
		arg int
	}
	sinks := []sink{{"Invalid", "errs", 0}, {"OnField", "errs", 1}}
	seen := map[sink]bool{}
	// A forwarder's own package name is unknown here; it is called locally
	// (pkg "") in its package and as pkg.Name elsewhere: match by name only.
	matches := func(call *ast.CallExpr, s sink) bool {
		switch f := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := f.X.(*ast.Ident); ok && f.Sel.Name == s.fn {
				return s.pkg == "" || x.Name == s.pkg
			}
		case *ast.Ident:
			return s.pkg == "" && f.Name == s.fn
		}
		return false
	}
	for len(sinks) > 0 {
		s := sinks[0]
		sinks = sinks[1:]
		if seen[s] {
			continue
		}
		seen[s] = true
		for _, fn := range funcs {
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) <= s.arg || !matches(call, s) {
					return true
				}
				where := fset.Position(call.Pos()).String()
				for _, v := range resolve(fn, call.Args[s.arg]) {
					switch {
					case v.param >= 0:
						sinks = append(sinks, sink{fn: fn.Name.Name, arg: v.param})
					case v.unknown && anyName[fn.Name.Name]:
					case v.unknown:
						t.Errorf("%s: cannot tell which field %s names", where, fn.Name.Name)
					case v.path:
					default:
						fields[v.name] = where
					}
				}
				return true
			})
		}
	}
	// checkQuery names any query parameter: every one a handler reads
	// (q.Get("…"), c.r.URL.Query().Get("…")) needs a label too.
	for _, fn := range funcs {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && isQueryGet(call) && len(call.Args) == 1 {
				for _, v := range resolve(fn, call.Args[0]) {
					if !v.unknown && !v.path && v.param < 0 {
						fields[v.name] = fset.Position(call.Pos()).String()
					}
				}
			}
			return true
		})
	}
	if len(fields) < 50 {
		t.Fatalf("found only %d field names: the scan is broken", len(fields))
	}
	for name, where := range fields {
		for _, l := range i18n.Langs {
			if !slices.Contains(i18n.Keys(l), "field."+name) {
				t.Errorf("%s: no field.%s label (%s)", l, name, where)
			}
		}
	}
}

// isQueryGet tells a read of a query value: q.Get(…) on a variable named q,
// or ….URL.Query().Get(…).
func isQueryGet(call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Get" {
		return false
	}
	switch x := sel.X.(type) {
	case *ast.Ident:
		return x.Name == "q"
	case *ast.CallExpr:
		inner, ok := x.Fun.(*ast.SelectorExpr)
		return ok && inner.Sel.Name == "Query"
	}
	return false
}

// fieldValue is what a field argument can be: a name, a JSON path, the
// enclosing function's parameter number, or something the scan cannot follow.
type fieldValue struct {
	name    string
	path    bool
	param   int
	unknown bool
}

func resolve(fn *ast.FuncDecl, e ast.Expr) []fieldValue {
	switch e := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			return []fieldValue{{param: -1, unknown: true}}
		}
		return []fieldValue{{name: s, param: -1}}
	case *ast.CallExpr: // fmt.Sprintf("nodes[%d].depth", i)
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			if lit, ok := e.Args[0].(*ast.BasicLit); ok && strings.ContainsAny(lit.Value, ".[") {
				return []fieldValue{{path: true, param: -1}}
			}
		}
	case *ast.SelectorExpr: // a decoder's JSON path (json.UnmarshalTypeError.Field)
		if e.Sel.Name == "Field" {
			return []fieldValue{{path: true, param: -1}}
		}
	case *ast.Ident:
		return resolveIdent(fn, e.Name)
	}
	return []fieldValue{{param: -1, unknown: true}}
}

// packageValues are the package-level constants and variables of every
// package by name, for the names they hold (a clash of names across
// packages at worst checks a label too many).
var packageValues map[string]ast.Expr

func addValues(into map[string]ast.Expr, decl *ast.GenDecl) {
	for _, spec := range decl.Specs {
		if vs, ok := spec.(*ast.ValueSpec); ok && len(vs.Values) == len(vs.Names) {
			for i, n := range vs.Names {
				into[n.Name] = vs.Values[i]
			}
		}
	}
}

// resolveIdent follows a variable: a parameter (of the function, or of a
// function literal it calls by a name), the values assigned or declared to
// it, the elements (keys of a map) of the literal a range statement walks,
// or a package-level constant or variable.
func resolveIdent(fn *ast.FuncDecl, name string) []fieldValue {
	i := 0
	for _, f := range fn.Type.Params.List {
		for _, n := range f.Names {
			if n.Name == name {
				return []fieldValue{{param: i}}
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	var out []fieldValue
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for j, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name == name && len(n.Rhs) == len(n.Lhs) {
					out = append(out, resolve(fn, n.Rhs[j])...)
				}
			}
		case *ast.DeclStmt:
			local := map[string]ast.Expr{}
			addValues(local, n.Decl.(*ast.GenDecl))
			if v, ok := local[name]; ok {
				out = append(out, resolve(fn, v)...)
			}
		case *ast.FuncLit:
			out = append(out, resolveLitParam(fn, n, name)...)
		case *ast.RangeStmt:
			x := n.X
			if id, ok := x.(*ast.Ident); ok && packageValues[id.Name] != nil {
				x = packageValues[id.Name]
			}
			lit, _ := x.(*ast.CompositeLit)
			for _, v := range []ast.Expr{n.Key, n.Value} {
				if id, ok := v.(*ast.Ident); ok && id.Name == name {
					if lit == nil {
						out = append(out, fieldValue{param: -1, unknown: true})
						continue
					}
					for _, el := range lit.Elts {
						if kv, ok := el.(*ast.KeyValueExpr); ok {
							el = kv.Key
						}
						out = append(out, resolve(fn, el)...)
					}
				}
			}
		}
		return true
	})
	if len(out) == 0 && packageValues[name] != nil {
		out = resolve(fn, packageValues[name])
	}
	if len(out) == 0 {
		return []fieldValue{{param: -1, unknown: true}}
	}
	return out
}

// resolveLitParam follows a parameter of a function literal assigned to a
// variable (bound := func(name string) …) to that variable's calls in fn.
func resolveLitParam(fn *ast.FuncDecl, lit *ast.FuncLit, name string) []fieldValue {
	param := -1
	i := 0
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			if n.Name == name {
				param = i
			}
			i++
		}
	}
	if param < 0 {
		return nil
	}
	var callee string
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for j, r := range as.Rhs {
				if r == lit {
					if id, ok := as.Lhs[j].(*ast.Ident); ok {
						callee = id.Name
					}
				}
			}
		}
		return true
	})
	var out []fieldValue
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) > param {
			if id, ok := call.Fun.(*ast.Ident); ok && callee != "" && id.Name == callee {
				out = append(out, resolve(fn, call.Args[param])...)
			}
		}
		return true
	})
	if len(out) == 0 {
		return []fieldValue{{param: -1, unknown: true}}
	}
	return out
}
