"""A seeded generator of instruction-following items: natural-looking responses built from
sentences, lists, highlights, sections, JSON, titles and postscripts, in several languages and
cases, each paired with one IFEval instruction whose arguments are drawn as IFEval draws them.

Used to measure agreement with the reference over many responses and as benchmark load.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, NamedTuple

ENGLISH = [
    "The river runs quietly past the old mill.",
    "Mr. Smith bought three apples at the market, and then he went home.",
    "I think the answer is yes, but I am not sure.",
    "Dr. Lee arrived at 9 a.m. and left at 5 p.m. on Friday.",
    "This is a simple sentence without any commas",
    "What would you do if the sky turned green?",
    "Wow! That was unexpected.",
    "The U.S. economy grew by 2.5 percent last year.",
    "Honestly, it depends on the weather... and on my mood.",
    "Please send the report to [name] at [address] before [date].",
    "Python is a programming language that lets you work quickly.",
    'She said, "I will be there soon."',
    "The quick brown fox jumps over the lazy dog.",
    "I DON'T KNOW WHAT TO SAY ABOUT THE NASA MISSION.",
    "Climate change affects ecosystems, economies, and people everywhere.",
    "Let me explain: first, we gather data; second, we analyze it.",
    "My answer is yes.",
    "Is there anything else I can help with?",
    "Any other questions?",
    "The e.g. and i.e. abbreviations are often confused.",
]
OTHER = {
    "fr": "Le chat dort sur le canapé pendant que la pluie tombe doucement sur la ville.",
    "de": "Der Hund läuft schnell durch den Park, weil er einen Ball sieht.",
    "es": "La casa de mi abuela está en un pueblo pequeño cerca del mar.",
    "it": "Oggi il tempo è bello e andiamo a fare una passeggiata in montagna.",
    "pt": "O menino comprou um livro novo na livraria do centro da cidade.",
    "ru": "Сегодня очень хорошая погода, и мы пойдём гулять в парк.",
    "hi": "आज मौसम बहुत अच्छा है और हम पार्क में घूमने जाएंगे।",
    "zh-cn": "今天天气很好，我们去公园散步吧。",
    "ja": "今日はとても良い天気なので、公園に散歩に行きましょう。",
    "ar": "الطقس جميل اليوم ونحن ذاهبون إلى الحديقة للتنزه.",
    "ko": "오늘 날씨가 아주 좋아서 우리는 공원에 산책하러 갑니다.",
    "sw": "Leo hali ya hewa ni nzuri sana na tunakwenda kutembea bustanini.",
}
KEYWORDS = [
    "river",
    "apples",
    "answer",
    "weather",
    "data",
    "fox",
    "python",
    "green",
    "report",
    "market",
    "mission",
    "people",
    "sky",
    "mood",
    "city",
    "dog",
    "home",
    "year",
]
ENDINGS = ["Any other questions?", "Is there anything else I can help with?", "Peace out."]
LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "ru", "hi", "ja", "ar", "ko", "sw"]


class CorpusItem(NamedTuple):
    response: str
    instruction_id: str
    kwargs: dict[str, Any]
    prompt: str


def _sentences(rng: random.Random, n: int) -> list[str]:
    return [rng.choice(ENGLISH) for _ in range(n)]


def _paragraphs(rng: random.Random) -> list[str]:
    return [" ".join(_sentences(rng, rng.randint(1, 4))) for _ in range(rng.randint(1, 5))]


def _response(rng: random.Random) -> str:
    shape = rng.randrange(14)
    paragraphs = _paragraphs(rng)
    if shape == 0:
        text = "\n\n".join(paragraphs)
    elif shape == 1:
        text = rng.choice(["\n***\n", " *** ", "\n\n***\n\n", "***"]).join(paragraphs)
    elif shape == 2:
        marker = rng.choice(["* ", "- ", "  * ", "*", "-", "** "])
        text = rng.choice(ENGLISH) + "\n" + "\n".join(marker + p for p in paragraphs)
    elif shape == 3:
        text = " ".join(
            rng.choice([f"*{p[:30]}*", f"**{p[:20]}**", p, "* *", "**"]) for p in paragraphs
        )
    elif shape == 4:
        word = rng.choice(["Section", "SECTION", "PARAGRAPH"])
        text = "\n".join(f"{word} {i + 1}\n{p}" for i, p in enumerate(paragraphs))
    elif shape == 5:
        body = json.dumps({"answer": paragraphs[0], "items": paragraphs[1:]}, ensure_ascii=False)
        text = rng.choice(["{}", "```json\n{}\n```", "```\n{}\n```", "Here: {}", "{}}}"]).format(
            body
        )
    elif shape == 6:
        text = rng.choice(["<<A Poem of Joy>>\n", "<<>>\n", "<< >>", "<<Title", ""]) + "\n\n".join(
            paragraphs
        )
    elif shape == 7:
        text = "\n\n".join(paragraphs) + rng.choice(
            ["\n\nP.S. See you soon.", "\nP.P.S: more", "\np.s. later", "\nPS: no", "\n\nP. S. x"]
        )
    elif shape == 8:
        text = '"' + " ".join(paragraphs) + rng.choice(['"', "", '" '])
    elif shape == 9:
        text = " ".join(paragraphs).upper() if rng.random() < 0.5 else " ".join(paragraphs).lower()
    elif shape == 10:
        language = rng.choice(list(OTHER))
        text = " ".join([OTHER[language]] * rng.randint(1, 3))
        if rng.random() < 0.3:
            text += " " + rng.choice(ENGLISH)
    elif shape == 11:
        text = paragraphs[0] + "\n******\n" + rng.choice([paragraphs[-1], paragraphs[0], ""])
    elif shape == 12:
        text = " ".join(paragraphs).replace(",", "")
    else:
        text = "\n\n".join(paragraphs) + " " + rng.choice(ENDINGS) + rng.choice(["", '"', "\n"])
    if rng.random() < 0.15:
        text = rng.choice(["Sure! Here is my answer:\n", "**Answer**\n", "  \n"]) + text
    if rng.random() < 0.1:
        text += rng.choice(["\nHope this helps!", "\n*", "\n\n"])
    return text


def _relation(rng: random.Random) -> str:
    return rng.choice(["less than", "at least"])


def _nth_paragraph(rng: random.Random) -> dict[str, Any]:
    count = rng.randint(1, 5)
    first_word = rng.choice(["the", "mr", "i", "this", "python", "wow"])
    return {
        "num_paragraphs": count,
        "nth_paragraph": rng.randint(1, count),
        "first_word": first_word,
    }


def _word_range(rng: random.Random) -> dict[str, Any]:
    low = rng.randint(5, 80)
    return {"min_words": low, "max_words": low + rng.randint(0, 40)}


def _kwargs(rng: random.Random, instruction_id: str, prompt: str) -> dict[str, Any]:
    name = instruction_id.split(":")[1]
    return {
        "existence": lambda: {"keywords": rng.sample(KEYWORDS, rng.randint(1, 3))},
        "frequency": lambda: {
            "keyword": rng.choice(KEYWORDS),
            "frequency": rng.randint(1, 3),
            "relation": _relation(rng),
        },
        "forbidden_words": lambda: {"forbidden_words": rng.sample(KEYWORDS, 2)},
        "letter_frequency": lambda: {
            "letter": rng.choice("aeiouxyzq"),
            "let_frequency": rng.randint(1, 12),
            "let_relation": _relation(rng),
        },
        "response_language": lambda: {"language": rng.choice(LANGUAGES)},
        "number_sentences": lambda: {
            "num_sentences": rng.randint(1, 8),
            "relation": _relation(rng),
        },
        "number_paragraphs": lambda: {"num_paragraphs": rng.randint(1, 5)},
        "number_words": lambda: {"num_words": rng.randint(5, 80), "relation": _relation(rng)},
        "nth_paragraph_first_word": lambda: _nth_paragraph(rng),
        "number_placeholders": lambda: {"num_placeholders": rng.randint(1, 4)},
        "postscript": lambda: {"postscript_marker": rng.choice(["P.S.", "P.P.S", "PS:"])},
        "number_bullet_lists": lambda: {"num_bullets": rng.randint(1, 5)},
        "number_highlighted_sections": lambda: {"num_highlights": rng.randint(1, 4)},
        "multiple_sections": lambda: {
            "section_spliter": rng.choice(["Section", "SECTION", "PARAGRAPH"]),
            "num_sections": rng.randint(1, 5),
        },
        "repeat_prompt": lambda: {"prompt_to_repeat": prompt},
        "end_checker": lambda: {"end_phrase": rng.choice(ENDINGS)},
        "word_count_range": lambda: _word_range(rng),
        "unique_word_count": lambda: {"N": rng.randint(5, 60)},
        "numbers": lambda: {"N": rng.randint(0, 4)},
        "keywords_multiple": lambda: {
            f"keyword{i}": rng.choice(["the", "a", "river", "is", "e", "an"]) for i in range(1, 6)
        },
        "capital_word_frequency": lambda: {
            "capital_frequency": rng.randint(1, 20),
            "capital_relation": _relation(rng),
        },
    }.get(name, dict)()


#: The families this generator draws kwargs for: IFEval's 25 and seven of IFBench's (the
#: others have their own generator, tests/support/ifbench_corpus.py).
CORPUS_IFBENCH_IDS = (
    "count:word_count_range",
    "count:unique_word_count",
    "count:numbers",
    "format:no_whitespace",
    "count:keywords_multiple",
    "words:palindrome",
    "count:punctuation",
)


def corpus_ids() -> list[str]:
    from if_verifiable.ifeval.instructions_registry import INSTRUCTION_DICT

    return sorted([*INSTRUCTION_DICT, *CORPUS_IFBENCH_IDS])


def corpus(size: int, seed: int = 0, ids: list[str] | None = None) -> Iterator[CorpusItem]:
    """`size` items, the same for the same seed."""
    rng = random.Random(seed)
    names = ids or corpus_ids()
    for _ in range(size):
        instruction_id = rng.choice(names)
        prompt = rng.choice(ENGLISH)
        response = _response(rng)
        if instruction_id == "combination:repeat_prompt" and rng.random() < 0.6:
            response = rng.choice([prompt, prompt.upper(), " " + prompt]) + "\n" + response
        yield CorpusItem(response, instruction_id, _kwargs(rng, instruction_id, prompt), prompt)
