"""The pre-check: every construct the issue forbids, their spelling tricks, and honest proofs."""

from __future__ import annotations

import time

import pytest

from rlvr.verifier.domains.lean.precheck import attribute_names, normalize, precheck

REFUSED = [
    # (source, construct named in the refusal)
    ("import Mathlib\ntheorem t : True := trivial", "import"),
    ("prelude\ntheorem t : True := trivial", "prelude"),
    ("set_option debug.skipKernelTC true\ntheorem t : False := sorry", "debug option"),
    ("set_option  debug.skipKernelTC  true in\ntheorem t : 1 = 2 := rfl", "debug option"),
    ("set_option\n\tdebug.skipKernelTC true", "debug option"),
    ("set_option debug . skipKernelTC true", "debug option"),
    ("set_option «debug».skipKernelTC true", "debug option"),
    ("set_option «debug.skipKernelTC» true", "debug option"),
    ("set_option debug.«skipKernelTC» true", "debug option"),
    ("set_option /- hi -/ debug.byAsSorry true", "debug option"),
    ("unsafe def f : Nat := 0", "unsafe"),
    ('@[extern "lean_nat_add"] def f (n : Nat) : Nat := n', "extern"),
    ("@[implemented_by g] def f (n : Nat) : Nat := n", "implemented_by"),
    ("attribute [implemented_by g] f", "implemented_by"),
    ('run_cmd Lean.logInfo "hi"', "run_cmd"),
    ("theorem t : True := by run_tac pure ()", "run_tac"),
    ("run_elab pure ()", "run_elab"),
    ("run_meta pure ()", "run_meta"),
    ('elab "foo" : tactic => pure ()', "elab"),
    ("elab_rules : tactic | `(tactic| foo) => pure ()", "elab_rules"),
    ("macro_rules | `(tactic| decide) => `(tactic| sorry)", "macro_rules"),
    ('macro "triv" : tactic => `(tactic| sorry)', "macro"),
    ('syntax "foo" : tactic', "syntax"),
    ('local notation "ℕ" => Unit', "notation"),
    ('notation3 "x" => 1', "notation"),
    ('infixl:65 " +\' " => HAdd.hAdd', "infix"),
    ('prefix:max "√" => Nat.sqrt', "prefix"),
    ('postfix:max "!" => Nat.factorial', "postfix"),
    ("#guard_msgs in\ntheorem t : False := sorry", "#guard_msgs"),
    ("#guard 1 = 1", "#guard"),
    ("#guard_expr 1 = 1", "#guard"),
    ("theorem t : False := by\n  exact sorry\n#exit", "#exit"),
    ('#eval IO.println "{\\"env\\": 3}"', "#eval"),
    ("#eval! (pure () : IO Unit)", "#eval"),
    ("theorem t : 2 + 2 = 4 := by native_decide", "native_decide"),
    ("theorem t : P := Lean.ofReduceBool _ _ rfl", "ofReduceBool"),
    ("initialize foo : IO.Ref Nat ← IO.mkRef 0", "initialize"),
    ("builtin_initialize pure ()", "initialize"),
    ("simproc foo (_) := fun _ => pure .continue", "simproc"),
    ("declare_syntax_cat foo", "declare_*"),
    ("register_simp_attr my_simp", "register_*"),
    ("unif_hint (x : Nat) where x =?= 0 ⊢ x + 0 =?= 0", "unif_hint"),
    ("theorem t : True := by_elab pure (Lean.mkConst ``True.intro)", "by_elab"),
    ('binder_predicate x " > " y:term => `($x > $y)', "binder_predicate"),
    ("namespace Y\ntheorem t : True := trivial\nend Y\nexport Y (t)", "export"),
    # attributes that register code Lean runs
    (
        "@[command_elab Lean.Parser.Command.printAxioms] def f : Lean.Elab.Command.CommandElab := "
        "fun _ => pure ()",
        "@[command_elab]",
    ),
    ("@[term_elab Lean.Parser.Term.typeOf] def f := 0", "@[term_elab]"),
    ("@[tactic Lean.Parser.Tactic.decide] def f := 0", "@[tactic]"),
    ("@[macro Lean.Parser.Term.typeOf] def f := 0", "macro"),
    ("theorem t : True := trivial\n-- fine\n#eval 1", "#eval"),
    ("@[delab app.Eq] def f := 0", "@[delab]"),
    ("@[app_unexpander Eq] def f := 0", "@[app_unexpander]"),
    ("@[init foo] def f := 0", "@[init]"),
    ("@[csimp] theorem f : @a = @b := rfl", "@[csimp]"),
    ("@[norm_num _ + _] def f := 0", "@[norm_num …]"),
    ("@[simp, local command_elab x] def f := 0", "@[command_elab]"),
    ("attribute [local command_elab Lean.Parser.Command.printAxioms] f", "@[command_elab]"),
    ("@[aesop safe tactic] def f : Lean.Elab.Tactic.TacticM Unit := pure ()", "@[... tactic]"),
    ("@[builtin_command_elab x] def f := 0", "@[builtin_command_elab]"),
    ("@[command_parser] def f := 0", "@[command_parser]"),
    # brackets hidden in literals so that a naive reader ends the attribute list early
    ('@[simp "]", norm_num x] def f := 0', "@[norm_num …]"),
    ("@[simp ']', positivity x] def f := 0", "@[positivity …]"),
    # spelling tricks
    ("«#exit»", "#exit"),
    ("#e\u200bxit", "#exit"),
    ("#\uff45xit", "#exit"),  # fullwidth e, folded by NFKC
    ("«run_cmd» foo", "run_cmd"),
    ("@[«command_elab» Lean.Parser.Command.printAxioms] def f := 0", "@[command_elab]"),
    ("@[«implemented_by» g] def f := 0", "implemented_by"),
    ("«unsafe» def f : Nat := 0", "unsafe"),
    # code after something that only looks like a comment or a string to a naive reader
    ('theorem t : True := trivial\n"--" #eval 1', "#eval"),
    ("theorem t : True := trivial /- a /- nested -/ still a comment -/ #eval 1", "#eval"),
    ("theorem t : Char := '\"' #eval 1 -- \"", "#eval"),
    ("theorem t : Char := '\\'' #eval 1", "#eval"),
    ("theorem t : True := trivial --\n#eval 1", "#eval"),
    ("example := x <-- hidden?\n#exit", "#exit"),
    # where our reading could differ from Lean's, everything is searched (strict mode)
    ("theorem t := x <--#exit", "#exit"),  # `<-` is a token to Lean: no comment starts there
    ('theorem t := f ⁻¹\'"\' x " #eval 1 "', "#eval"),  # `⁻¹'` is a Mathlib token
    ('def s := s!"{#eval 1}"', "#eval"),  # braces of an interpolated string hold code
    ('def s := r"raw" #eval 1', "#eval"),
    ("theorem t : True := trivial /- unterminated #exit", "#exit"),
    # a doc comment's body is read by Lean only after `/--` at a declaration; elsewhere (after a
    # parse error) Lean reads on token by token: its body is searched like code
    ("theorem t : True := (trivial\n/-- #eval 1 -/)", "#eval"),
    ("def c := 2'\"' #eval 1 -- \"", "#eval"),  # a char literal right after a number
    # a char literal may hold a line break: `'⏎'` then a string, not `'"'` then code
    ("def c := '\n'\"' x \" #eval 1 \"", "#eval"),
    # an escape Lean rejects ends its string in an error, and its recovery may read on as code
    ('def s := "\\q #eval 1"', "#eval"),
    ("def c := '\\q' #eval 1", "#eval"),
    ("/-! #exit -/\ntheorem t : True := trivial", "#exit"),
    ("theorem t (xж : Nat) : True := trivial\ndef yж'\"' #eval 1 -- \"", "#eval"),
    ("theorem t : True := by\n  trivial\x00", "'\\x00'"),
    # the four code-running constructs of issue 17 and their family
    ("theorem t : ∀ n : Nat, n + 0 = n := by\n  test_extern Nat.add 1 2", "test_extern"),
    ("test_extern Nat.add 1 2", "test_extern"),
    ("theorem t (n : Nat) : n = n := by plausible", "plausible"),
    ("theorem t (n : Nat) : n = n := by slim_check", "plausible"),
    ("theorem t : 2 ^ 10 = 1024 := by decide +native", "native"),
    ("theorem t : 2 ^ 10 = 1024 := by decide (config := {native := true})", "native"),
    ("theorem t : 2 ^ 10 = 1024 := by decide (config := { native := true })", "native"),
    ("@[to_additive (attr := norm_num _ * _) x] def f := 0", "@[norm_num …]"),
    ("@[to_additive (attr := positivity _ * _) x] def f := 0", "@[positivity …]"),
    ("@[simps (attr := combinator_formatter x)] def f := 0", "@[combinator_formatter]"),
    ("@[reassoc (attr := simp, command_elab x)] def f := 0", "@[command_elab]"),
    ("@[to_additive (attr := to_additive (attr := init x))] def f := 0", "@[init]"),
    ("#reduce (fun x => x) 1", "#command"),
    ("#html <b>hi</b>", "#command"),
    ("#test ∀ n : Nat, n = n", "#command"),
    ("#sample Nat", "#command"),
    ("#count_heartbeats in theorem t : True := trivial", "#command"),
    ("theorem t : 2 = 2 := by bv_decide", "bv_decide"),
    ("compile_inductive% Nat", "compile%"),
    ("open Lean Elab Command in\ntheorem t : True := trivial", "meta code"),
    ("def f : Lean.Elab.Command.CommandElabM Unit := pure ()", "meta code"),
    ("def f (e : Expr) : MetaM Nat := evalExpr Nat (mkConst ``Nat) e", "meta code"),
    ('def f : Nat := match (IO.println "x" : IO Unit) () with | _ => 0', "meta code"),
    ("def f : Nat := (EStateM.run (pure 1 : EStateM Unit Unit Nat) ()).1", "meta code"),
    ("def w : IO.RealWorld := ()", "meta code"),
    ("theorem t : True := by\n  run_tac Lean.Elab.Tactic.evalTactic x", "run_tac"),
    (
        "def cfg : Lean.Meta.Simp.Config := {}\ntheorem t : True := by simp (config := cfg)",
        "config :=",
    ),
    (
        "def mk (n : Nat) := n\ntheorem t : True := by decide (config := { maxSteps := mk 1 })",
        "config :=",
    ),
    ('@[extern "lean_x"] def f (n : Nat) : Nat := n', "extern"),
    ("@[implemented_by g] opaque f : Nat", "implemented_by"),
    ("@[export lean_f] def f (n : Nat) : Nat := n", "export"),
    ("declare_syntax_cat foo", "declare_*"),
    ("declare_config_elab elabCfg Foo", "declare_*"),
    ("declare_simp_like_tactic x", "declare_*"),
]


@pytest.mark.parametrize(("source", "construct"), REFUSED, ids=[c for _, c in REFUSED])
def test_forbidden_construct_is_refused_with_its_name(source: str, construct: str) -> None:
    refusal = precheck(source)
    assert refusal is not None, source
    assert refusal.construct == construct
    assert construct in refusal.detail
    assert "refused before running Lean" in refusal.detail


HONEST = [
    "theorem t (a b : Nat) : a + b = b + a := by\n  omega",
    "theorem t (a b : Nat) : a + b = b + a := Nat.add_comm a b",
    "@[simp] theorem helper (n : Nat) : n + 0 = n := rfl\ntheorem t : 1 + 0 = 1 := by simp",
    "open Nat in\ntheorem t (n : Nat) : n ≤ n + 1 := Nat.le_succ n",
    "theorem t : ∀ n : Nat, n = n := fun n => rfl",
    "set_option maxHeartbeats 400000 in\ntheorem t : True := trivial",
    "theorem t (xs : List Nat) : xs.reverse.reverse = xs := by simp [List.isPrefix_iff]",
    "theorem t (a : Nat) (elab' : a = a) : True := trivial",  # `elab'` is an identifier
    "@[local instance] def inst : Inhabited Nat := ⟨0⟩\ntheorem t : True := trivial",
    "attribute [-simp] Nat.add_eq\ntheorem t : True := trivial",
    "@[elab_as_elim] theorem rec' {P : Nat → Prop} : P 0 → ∀ n, P n := sorry",
    "theorem t : (3 : Nat) ∣ 6 := by decide",
    "theorem t (a : Nat) (h : a.prefix_ok = 1) : True := trivial",
    "@[simp] theorem h' (n : Nat) : n * 1 = n := Nat.mul_one n",
    # typical prover-model output (Mathlib style)
    "theorem mathd_algebra_478 (b h v : ℝ) (h₀ : 0 < b ∧ 0 < h ∧ 0 < v)\n"
    "    (h₁ : v = 1 / 3 * (b * h)) (h₂ : b = 30) (h₃ : h = 13 / 2) : v = 65 := by\n"
    "  -- Substitute the given values of b and h into the volume formula\n"
    "  rw [h₂, h₃] at h₁\n  norm_num [h₁]\n  <;> linarith",
    "open Real Nat Topology in\ntheorem t (x : ℝ) (hx : 0 < x) : 0 < x ^ 2 := by\n"
    "  have := sq_nonneg (x - 1)\n  nlinarith [sq_nonneg (x + 1), mul_pos hx hx]",
    "attribute [local instance] Classical.propDecidable\n"
    "set_option maxHeartbeats 400000 in\ntheorem t : True := by\n  /- a block comment -/ trivial",
    '@[to_additive "a doc, with a comma"] theorem t : True := trivial',
    # issue 17: honest text the old whole-text search refused
    "theorem t (n : Nat) : n = n := by\n  -- prefix sums: first the base case\n  rfl",
    "-- notation, syntax, macro, export, unsafe, extern, #exit, #eval, run_cmd\n"
    "theorem t : True := trivial",
    "/- This uses no `macro_rules`, no `native_decide`, and no `#eval`. -/\n"
    "theorem t : True := trivial",
    "theorem t (prefix : List Nat) (h : prefix = []) : prefix.length = 0 := by simp [h]",
    "theorem t (l : List Nat) (prefix : List Nat) : True := trivial",
    "theorem t (declare_x : Nat) : declare_x = declare_x := rfl",
    "theorem foo_delab (n : Nat) : n = n := rfl",
    "theorem t (x_elab y_parser : Nat) : x_elab + y_parser = y_parser + x_elab := Nat.add_comm _ _",
    "@[reassoc] theorem t : True := trivial",
    "@[positivity] theorem t : True := trivial",
    "@[always_inline] def f (n : Nat) : Nat := n",
    "@[macro_inline] def f (n : Nat) : Nat := n",
    "@[simp, reassoc] theorem t : True := trivial",
    "@[to_additive (attr := simp) add_t] theorem t : True := trivial",
    "@[simps (config := .lemmasOnly)] def e : Nat × Nat := (1, 2)",
    'theorem t : "#eval".length = 5 := rfl',
    'theorem t : "-- not a comment".length = 16 := by decide',
    "theorem t : 'a' ≠ 'b' := by decide",
    "theorem t : '\"' ≠ 'b' := by decide",
    "theorem t (f : ℕ → ℕ) (s : Set ℕ) : f '' s = f '' s := rfl",
    "theorem t (x : Nat) : x = x := by\n  simp (config := { decide := true })",
    "theorem t : 2 ^ 10 = 1024 := by decide +kernel",
    "theorem t (s : Finset ℕ) : #s = s.card := rfl",
    "theorem t (p : Polynomial ℤ) : p.eval 0 = p.eval 0 := rfl",
    "theorem t : True := by\n  trivial -- a `#eval 1` in a trailing comment",
    "theorem t (h₁' : 1 = 1) : True := by\n  -- no #eval here\n  trivial",
    "theorem t (x : ℝ) (hx : 0 < x) : 0 < x := by\n  /- not `native_decide` -/ exact hx",
]


@pytest.mark.parametrize("source", HONEST)
def test_honest_source_passes_the_precheck(source: str) -> None:
    assert precheck(source) is None


def test_header_may_import_but_not_switch_the_kernel_off() -> None:
    assert precheck("import Mathlib\nopen Real", allow_imports=True) is None
    refusal = precheck("import Mathlib\nset_option debug.skipKernelTC true", allow_imports=True)
    assert refusal is not None and refusal.construct == "debug option"
    assert precheck("prelude", allow_imports=True) is not None


def test_refusal_names_the_line() -> None:
    refusal = precheck("theorem t : True := by\n  trivial\n\n#exit")
    assert refusal is not None and refusal.line == 4


def test_normalize_removes_guillemets_and_invisible_characters() -> None:
    assert normalize("«#ex\u200bit»") == "#exit"


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ("simp", ["simp"]),
        ("local simp, -foo, instance 100", ["simp", "foo", "instance"]),
        ("scoped command_elab x", ["command_elab"]),
        ('to_additive "doc, with comma"', ["to_additive"]),
        ("aesop safe apply (rule_sets := [A, B])", ["aesop"]),
    ],
)
def test_attribute_names_are_split_at_top_level_commas(body: str, names: list[str]) -> None:
    assert attribute_names(body) == names


@pytest.mark.parametrize(
    "text",
    [
        "@[" * 500_000,
        "a" * 1_000_000,
        "ab_ " * 250_000,
        "@[simp " + "(" * 1_000_000,
        "'a' " * 250_000,
        "-- x\n" * 200_000,
        '"a" ' * 250_000,
        "/- " * 330_000,
        "h₁' " * 250_000,
    ],
    ids=[
        "unclosed-attributes",
        "one-word",
        "many-words",
        "deep-brackets",
        "many-chars",
        "many-comments",
        "many-strings",
        "unclosed-comments",
        "many-primes",
    ],
)
def test_precheck_stays_linear_on_a_megabyte_of_adversarial_text(text: str) -> None:
    """A complexity guard, not a speed measurement: linear work on a megabyte takes a second or
    two even on a loaded 2-core machine, a quadratic scan hours; 30 s separates the two."""
    started = time.perf_counter()
    precheck(text)
    assert time.perf_counter() - started < 30.0


# ---------------------------------------------------------------- issue 21, items 14-16

# Names judged as Lean resolves them: `_root_.X` is `X` from the root namespace.
ROUND_THREE_REFUSED = [
    ('theorem t : True := by\n  have := _root_.IO.println "x"\n  trivial', "meta code"),
    ("def e := _root_.Lean.Meta.evalExpr", "meta code"),
    ("def u := _root_.unsafeBaseIO (pure 1)", "meta code"),
    ("def m : _root_.Lean.Elab.Tactic.TacticM Unit := pure ()", "meta code"),
    ("def m := «_root_».IO.println", "meta code"),
    ("def m := @_root_.IO.println", "meta code"),
    ("open _root_.Lean in\ndef x := 1", "meta code"),
    # Configuration items Lean evaluates, in every spelling.
    ("def f := 3\ntheorem t : True := by simp (maxSteps := f)", "maxSteps :="),
    ("def f := 3\ntheorem t : True := by simp (config := { maxSteps := f })", "config :="),
    ("def f := 3\ntheorem t : True := by omega (config := (f))", "config :="),
    ("theorem t : True := by aesop (add safe tactic t)", "aesop (add … tactic …)"),
    ("theorem t : True := by aesop (add norm 5 tactic my_tac)", "aesop (add … tactic …)"),
    # Parenthesised precedences are precedences.
    ('infixl:(65) " +++ " => Nat.add', "infix"),
    ('prefix:(max) "√" => Nat.sqrt', "prefix"),
    ('postfix:(max + 1) "!" => Nat.factorial', "postfix"),
    ('infixr:max+1 " ^^ " => Nat.pow', "infix"),
    # A doc comment is prose for `initialize`, but an `initialize` after it is code.
    ("/-- doc -/ initialize x : Nat ← pure 1", "initialize"),
]

ROUND_THREE_HONEST = [
    "/-- We initialize the sum at zero. -/\ntheorem t : 0 + 0 = 0 := rfl",
    "/-- Initialize: the base case.\n  initialize the induction -/\ntheorem t : True := trivial",
    # A named argument that names a helper lemma (a proof, never evaluated) is fine.
    "theorem h : 1 = 1 := rfl\ntheorem t : 1 = 1 := by exact Eq.trans (b := 1) h rfl",
    "theorem t (n : Nat) : n + 0 = n := by simp (config := { decide := true })",
    "theorem t : True := by aesop (add safe apply True.intro)",
]


@pytest.mark.parametrize(
    ("source", "construct"), ROUND_THREE_REFUSED, ids=[s[:30] for s, _ in ROUND_THREE_REFUSED]
)
def test_round_three_constructs_are_refused(source: str, construct: str) -> None:
    refusal = precheck(source)
    assert refusal is not None, source
    assert refusal.construct == construct, refusal


@pytest.mark.parametrize("source", ROUND_THREE_HONEST)
def test_round_three_honest_sources_pass(source: str) -> None:
    assert precheck(source) is None


def test_a_refusal_after_many_attribute_lists_names_its_line() -> None:
    source = "@[simp] theorem a : True := trivial\n" * 1000 + "@[tactic foo] def b := 1\n"
    refusal = precheck(source)
    assert refusal is not None and refusal.line == 1001


@pytest.mark.parametrize(
    "text",
    [
        "@[simp] theorem a : True := trivial\n" * 11_000,  # 400 KB: was quadratic (7.5 s)
        "def f := 1\n" + "(config := " * 8000,  # 88 KB: was 20,000 steps a match (44 s)
        "def f := 1\n" + "(maxSteps := " * 6800,
        "def f := 1\n" + "(config := (" * 8000,
        "@[simp] " + "(attr := " * 9000,
        "/-- " + "initialize " * 40_000 + "-/",
    ],
    ids=["repeated-simp", "config", "config-items", "config-deep", "nested-attr", "doc-prose"],
)
def test_the_precheck_is_linear_on_round_three_texts(text: str) -> None:
    """Measured before the fix: 3.2 s and 93 s for the first two on this (shared) machine."""
    started = time.perf_counter()
    precheck(text)
    assert time.perf_counter() - started < 5.0
