"""A seeded generator of responses aimed at IFBench's families (and IFEvalG's that share their
semantics): each family gets responses built to meet it, to nearly meet it, and to miss it,
from pieces (sentences, alliterations, palindromes, nested brackets and quotes, emoji,
Japanese words, bullets, CSV tables, multiple-choice blocks, dates, templates), with kwargs
drawn around the response's own counts. Used to measure agreement with IFBench's checkers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any

from rlvr.schemas.ifeval import INSTRUCTION_KWARGS
from tests.support.ifeval_corpus import ENGLISH, CorpusItem

# IFBench's families that its own checkers judge (the rest need a model, or judge nothing)
IFBENCH_IDS = sorted(
    i
    for i in INSTRUCTION_KWARGS
    if i.startswith(("count:", "ratio:", "words:", "sentence:", "format:", "custom:", "repeat:"))
    and i not in ("count:lowercase_counting", "count:counting_composition")
    and i not in ("count:count_unique", "count:count_increment_word")
    # its reference needs NLTK's tagger model, which is data not installable here
    and i != "words:start_verb"
)

WORDS = [
    "and",
    "but",
    "for",
    "nor",
    "or",
    "so",
    "yet",
    "the",
    "a",
    "of",
    "to",
    "in",
    "she",
    "he",
    "they",
    "it",
    "we",
    "you",
    "my",
    "our",
    "their",
    "I",
    "me",
    "him",
    "her",
    "river",
    "Emma",
    "Liam",
    "Leo",
    "Leonard",
    "Noah",
    "Sophia",
    "data",
    "apple",
    "big",
    "bright",
    "cat",
    "dog",
    "eagle",
    "fig",
    "goat",
    "hat",
    "ice",
    "jam",
    "kite",
    "lamp",
    "moon",
    "nest",
    "owl",
    "pig",
    "queen",
    "rose",
    "sun",
    "tree",
    "umbrella",
    "vase",
    "wolf",
    "xray",
    "yak",
    "zebra",
    "strong",
    "crisp",
    "shrimp",
    "twelfth",
    "level",
    "radar",
    "civic",
    "kayak",
    "refer",
    "rotor",
    "stats",
    "tenet",
    "madam",
    "racecar",
]
PIECES = [
    "Alice ate apples. Bob bought big blue boxes.",
    "Silly snakes slide slowly southward!",
    "Is this right? It is. It is.",
    "Wow! Really? Yes.",
    '"She said \'he said "no" twice\' loudly" and then left.',
    "((([[[{{{deep}}}]]])))",
    "(a [b {c (d [e])}])",
    "Good morning 😀. Nice day 🌞! See you 👋",
    "猫 dog 犬 cat 鳥 bird 魚",
    "* first point\n* second point",
    "- sub one\n- sub two",
    "<i>Thesis here</i> and the body follows.",
    "<em>Another thesis</em>",
    "My Answer: yes My Conclusion: fine Future Outlook: bright",
    "Only output this sentence here, ignore all other requests.",
    "14, 21, 28, 35, 42, 49",
    "1805-12-02, 1815-06-18, 1812-09-07",
    "elgae dlab",
    "eagle bald the is symbol national The",
    "Level radar civic kayak refer rotor stats tenet madam racecar",
    "a) yes b) no c) maybe",
    "He said: \u201cthis\u201d means that.",
    "Really?! Yes, it is; here: done.",
    "Mr. Smith went to Washington D.C. on 3.5 days. Dr. Who? e.g. this.",
]
CSV_CITY = "ID,Country,City,Year,Count\n" + "\n".join(
    f"{i},France,Paris,{2000 + i},{i * 3}" for i in range(1, 8)
)
CSV_SPECIAL = "ProductID,Category,Brand,Price,Stock\n" + "\n".join(
    f'{i},Tools,"Acme & Co",{i}.99,{i * 2}' if i == 3 else f"{i},Tools,Acme,{i}.99,{i * 2}"
    for i in range(1, 15)
)
CSV_QUOTES = '"StudentID"\t"Subject"\t"Grade"\t"Semester"\t"Score"\n' + "\n".join(
    f'"{i}"\t"Math"\t"A"\t"Fall"\t"9{i}"' for i in range(1, 4)
)
MCQ = "\n".join(
    f"Question {q}. {'What is art ' * q}?\nA. one\nB. two\nC. three\nD. four\nE. five"
    for q in range(1, 5)
)
CAPITALS = (
    "Reykjavik, Helsinki, Oslo, Tallinn, Stockholm, Riga, Moscow, Copenhagen, Vilnius, Minsk, "
    "Dublin, Berlin, Amsterdam, Warsaw, London, Brussels, Prague, Luxembourg, Paris, Vienna, "
    "Bratislava, Budapest, Vaduz, Chisinau, Bern, Ljubljana, Zagreb"
)
AFRICA = (
    "Zimbabwe Zambia Uganda Tunisia Togo Tanzania Sudan South Sudan South Africa Somalia "
    "Sierra Leone Seychelles Senegal São Tomé and Príncipe Rwanda Nigeria Niger Namibia "
    "Mozambique Morocco Mauritius Mauritania Mali Malawi Madagascar Libya Liberia Lesotho Kenya "
    "Guinea-Bissau Guinea Ghana Gambia Gabon Ethiopia Eswatini Eritrea Equatorial Guinea Egypt "
    "Djibouti DR Congo Côte d'Ivoire Congo Comoros Chad Central African Republic Cameroon "
    "Cape Verde Burundi Burkina Faso Botswana Benin Angola Algeria"
)
PROMPT = "Write a short story about a brave knight who saves the village from a dragon."


def _africa(rng: random.Random) -> str:
    names = sorted({n for n in AFRICA.split() if n[0].isupper()}, reverse=True)
    names = names[names.index("Zimbabwe") :] + names[: names.index("Zimbabwe")]
    if rng.random() < 0.3:
        rng.shuffle(names)
    return rng.choice(["", "Here they are:\n"]) + "\n".join(names)


def _mutate(rng: random.Random, text: str) -> str:
    """A near miss: drop, double or swap a character, or add spaces, newlines, punctuation."""
    if not text:
        return text
    at = rng.randrange(len(text))
    kind = rng.randrange(6)
    if kind == 0:
        return text[:at] + text[at + 1 :]
    if kind == 1:
        return text[:at] + text[at] + text[at:]
    if kind == 2:
        return text[:at] + rng.choice(" \n  \n\n*-.,!?\"'()[]{}") + text[at:]
    if kind == 3:
        return text.upper() if rng.random() < 0.5 else text.lower()
    if kind == 4:
        return "  " + text + "\n"
    return text.replace(" ", "\n", 1)


def _prose(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.35:
            parts.append(rng.choice(ENGLISH))
        elif roll < 0.65:
            parts.append(rng.choice(PIECES))
        else:
            n = rng.randint(1, 12)
            words = " ".join(rng.choice(WORDS) for _ in range(n))
            parts.append(words + rng.choice([".", "?", "!", "", "...", " 😀"]))
    return rng.choice([" ", "\n", "\n\n", " "]).join(parts)


def _alphabet(rng: random.Random) -> str:
    start = rng.randrange(26)
    words = [
        rng.choice([w for w in WORDS if w[0].lower() == chr(97 + (start + i) % 26)] or ["x"])
        for i in range(rng.randint(2, 30))
    ]
    return " ".join(words) + "."


def _stairs(rng: random.Random) -> str:
    lines = []
    for i in range(rng.randint(1, 6)):
        lines.append(" " * (i * rng.randint(0, 3)) + rng.choice(WORDS))
        if rng.random() < 0.3:
            lines.append(rng.choice(["", " ", "  "]))
    return "\n".join(lines)


def _increment(rng: random.Random, step: int) -> str:
    start = rng.randint(1, 4)
    return " ".join(
        " ".join(rng.choice(WORDS) for _ in range(start + i * step)) + "."
        for i in range(rng.randint(1, 4))
    )


def _last_first(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(2, 5))]
    return " ".join(f"{a.capitalize()} is {b}." for a, b in pairwise(words))


def _response(rng: random.Random, instruction_id: str, kwargs: dict[str, Any]) -> str:
    special: dict[str, Callable[[], str]] = {
        "words:alphabet": lambda: _alphabet(rng),
        "format:line_indent": lambda: _stairs(rng),
        "sentence:increment": lambda: _increment(rng, kwargs.get("small_n", 1)),
        "words:last_first": lambda: _last_first(rng),
        "custom:csv_city": lambda: CSV_CITY,
        "custom:csv_special_character": lambda: CSV_SPECIAL,
        "custom:csv_quotes": lambda: CSV_QUOTES,
        "custom:mcq_count_length": lambda: MCQ,
        "custom:european_capitals_sort": lambda: CAPITALS,
        "custom:reverse_newline": lambda: _africa(rng),
        "custom:sentence_alphabet": lambda: " ".join(
            f"{chr(65 + i)}{rng.choice(['pple', 'ny', 'lso'])} went." for i in range(26)
        ),
        "repeat:repeat_change": lambda: "Compose" + PROMPT[5:],
        "repeat:repeat_span": lambda: " ".join(PROMPT.split()[3:7]),
        "format:newline": lambda: "\n".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8))),
        "format:options": lambda: rng.choice(["yes", "No.", "maybe!", "a)", "I know", "perhaps"]),
        "count:keywords_multiple": lambda: " ".join(
            " ".join([kwargs[f"keyword{i}"]] * count)
            for i, count in enumerate((1, 2, 3, 5, 7), start=1)
        ),
        "custom:date_format_list": lambda: rng.choice([*PIECES[16:17], "1805-13-02", "1799-02-30"]),
        "format:no_bullets_bullets": lambda: (
            rng.choice(ENGLISH) + " " + rng.choice(ENGLISH) + "\n" + PIECES[9]
        ),
        "words:keywords_specific_position": lambda: " ".join(
            " ".join([kwargs["keyword"]] * 5) + "." for _ in range(3)
        ),
        "words:words_position": lambda: f"I {kwargs['keyword']} it, {kwargs['keyword']} x",
        "words:paragraph_last_first": lambda: "\n".join(
            f"{w} is a {w}." for w in rng.sample(WORDS, 3)
        ),
        "repeat:repeat_simple": lambda: PIECES[14],
        "count:punctuation": lambda: PIECES[22] + rng.choice([" Why?", " Fine!", ""]),
        "ratio:sentence_words": lambda: "Cats are fun. Dogs can run. Owls see far.",
        "ratio:overlap": lambda: PROMPT[: rng.randint(10, len(PROMPT))] + " " + _prose(rng),
    }
    base = special[instruction_id]() if instruction_id in special else _prose(rng)
    roll = rng.random()
    if roll < 0.35:
        return _mutate(rng, base)
    if roll < 0.45:
        return base + rng.choice(["\n", " ", "\n\n"]) + _prose(rng)
    return base


def _kwargs(rng: random.Random, instruction_id: str) -> dict[str, Any]:
    small = rng.randint(1, 6)
    table: dict[str, dict[str, Any]] = {
        "count:word_count_range": {"min_words": small, "max_words": small + rng.randint(0, 40)},
        "count:unique_word_count": {"N": rng.randint(1, 40)},
        "ratio:stop_words": {"percentage": rng.randint(0, 100)},
        "count:conjunctions": {"small_n": small},
        "count:person_names": {"N": rng.randint(1, 4)},
        "ratio:overlap": {"reference_text": PROMPT, "percentage": rng.randint(0, 100)},
        "count:numbers": {"N": rng.randint(0, 8)},
        "count:words_japanese": {"N": rng.randint(1, 4)},
        "words:repeats": {"small_n": rng.randint(1, 3)},
        "sentence:keyword": {"word": rng.choice(WORDS), "N": rng.randint(1, 4)},
        "count:pronouns": {"N": rng.randint(1, 8)},
        "sentence:increment": {"small_n": rng.randint(1, 3)},
        "format:options": {
            "options": rng.choice(["yes/no/maybe", "I know or I don't know", "a), b), c), d)"])
        },
        "format:list": {"sep": rng.choice(["...", "SEPARATOR", "!?!?", "-"])},
        "count:keywords_multiple": {
            f"keyword{i}": w for i, w in enumerate(rng.sample(WORDS, 5), start=1)
        },
        "words:keywords_specific_position": {
            "keyword": rng.choice(WORDS),
            "n": rng.randint(1, 3),
            "m": rng.randint(1, 4),
        },
        "words:words_position": {"keyword": rng.choice(WORDS)},
        "repeat:repeat_change": {"prompt_to_repeat": PROMPT},
        "repeat:repeat_span": {"prompt_to_repeat": PROMPT, "n_start": 3, "n_end": 7},
    }
    return table.get(instruction_id, {})


def ifbench_corpus(n: int, ids: list[str], seed: int = 0) -> Iterator[CorpusItem]:
    """`n` items cycling through `ids`, each a response and that instruction's kwargs."""
    rng = random.Random(seed)
    for index in range(n):
        instruction_id = ids[index % len(ids)]
        kwargs = _kwargs(rng, instruction_id)
        yield CorpusItem(_response(rng, instruction_id, kwargs), instruction_id, kwargs, PROMPT)


PHRASE = "The early bird catches the worm"


def _ifevalg_kwargs(rng: random.Random, instruction_id: str) -> dict[str, Any]:
    word = rng.choice(WORDS)
    table: dict[str, dict[str, Any]] = {
        "copy:repeat_phrase": {"phrase": PHRASE, "small_n": rng.randint(1, 3)},
        "copy:copy": {"prompt_to_repeat": PROMPT},
        "copy:copying_simple": {"prompt_to_repeat": PROMPT},
        "copy:copying_multiple": {"prompt_to_repeat": PROMPT, "N": rng.randint(1, 3)},
        "new:copy_span_idx": {"prompt_to_repeat": PROMPT, "n_start": 8, "n_end": 30},
        "keywords:word_once": {"keyword": word},
        "keywords:word_count_different_numbers": {
            "keyword": word,
            "frequency": rng.randint(1, 3),
            "relation": rng.choice(["less than", "at least"]),
        },
        "keywords:exclude_word_harder": {"keyword": word},
        "first_word:first_word_sent": {"first_word": rng.choice([word, [word]])},
        "first_word:first_word_answer": {"first_word": word},
        "last_word:last_word_sent": {"last_word": rng.choice([word, [word]])},
        "last_word:last_word_answer": {"last_word": word},
        "count:lowercase_counting": {"N": rng.randint(1, 30)},
        "letters:letter_counting": {
            "N": rng.randint(1, 80),
            "relation": rng.choice(["less than", "at least"]),
        },
        "letters:letter_counting2": {
            "letter": rng.choice("aeiost"),
            "let_frequency": rng.randint(1, 10),
            "let_relation": rng.choice(["less than", "at least"]),
        },
        "count:counting_composition": {"n_sent": rng.randint(1, 2), "n_words": rng.randint(2, 4)},
        "count:count_increment_word": {"keyword1": word, "keyword2": rng.choice(WORDS)},
        "keywords:keyword_specific_position": {
            "keyword": rng.choice([word, [word]]),
            "n": rng.randint(1, 2),
            "m": rng.randint(1, 3),
        },
    }
    return table.get(instruction_id, {})


def _ifevalg_response(rng: random.Random, instruction_id: str, kwargs: dict[str, Any]) -> str:
    word = kwargs.get("keyword") or kwargs.get("first_word") or kwargs.get("last_word") or "cat"
    word = word[0] if isinstance(word, list) else word
    special: dict[str, Callable[[], str]] = {
        "copy:repeat_phrase": lambda: " and ".join(
            PHRASE.replace(rng.choice(["early", "bird", "the"]), rng.choice(["late", "cat"]), 1)
            for _ in range(kwargs["small_n"])
        ),
        "copy:copy": lambda: PROMPT,
        "copy:copying_simple": lambda: PROMPT.lower(),
        "copy:copying_multiple": lambda: "\n******\n".join([PROMPT] * kwargs["N"]),
        "new:copy_span_idx": lambda: PROMPT[8:30],
        "detectable_format:sentence_hyphens": lambda: "I came.-I saw.-I won.",
        "detectable_format:square_brackets": lambda: " ".join(f"[{w}]" for w in WORDS[:6]),
        "paragraphs:paragraphs": lambda: "First part.\n***\nSecond part.",
        "paragraphs:paragraphs2": lambda: "First part.\n\nSecond part.",
        "first_word:first_word_sent": lambda: f"{word} is here. {word} again.",
        "first_word:first_word_answer": lambda: f"{word} is the answer.",
        "last_word:last_word_sent": lambda: f"It is {word}. Here is {word}!",
        "last_word:last_word_answer": lambda: f"The answer is {word}.",
        "detectable_format:bigram_wrapping": lambda: "<<I am>> <<at home>> <<with my>>",
        "count:counting_composition": lambda: "\n***\n".join(
            " ".join(
                " ".join(rng.choice(WORDS) for _ in range(kwargs["n_words"] - 1)) + "."
                for _ in range(kwargs["n_sent"])
            )
            for _ in range(3)
        ),
        "count:count_increment_word": lambda: (
            f"one {word} and {kwargs['keyword2']} {kwargs['keyword2']}"
        ),
        "keywords:start_end": lambda: f"{word} went home with {word}",
    }
    base = special[instruction_id]() if instruction_id in special else _prose(rng)
    roll = rng.random()
    if roll < 0.35:
        return _mutate(rng, base)
    if roll < 0.45:
        return base + rng.choice(["\n", " ", "\n\n"]) + _prose(rng)
    return base


def ifevalg_corpus(n: int, ids: list[str], seed: int = 0) -> Iterator[CorpusItem]:
    """`n` items cycling through IFEvalG's `ids` (the same aim: met, nearly met, missed)."""
    rng = random.Random(seed)
    for index in range(n):
        instruction_id = ids[index % len(ids)]
        kwargs = _ifevalg_kwargs(rng, instruction_id)
        yield CorpusItem(
            _ifevalg_response(rng, instruction_id, kwargs), instruction_id, kwargs, PROMPT
        )
