"""The labelled table's IFBench and IFEvalG rows: (instruction id, kwargs, response, strict
verdict, and the loose one where a line removed changes it), labelled by hand from each
family's instruction and its checker's reading; natural responses and the edges of the
kwargs and of the checkers' quirks (noted where they matter)."""

from __future__ import annotations

from tests.rlvr.verifier.domains.ifeval.cases import Case

LESS, LEAST = "less than", "at least"
REQUEST = "Write a short story about a brave knight who saves the village."
STAIRS_SKIP = "a\n\n\nb"  # IFBench drops one blank line and skips the next: the blank one stays

IFBENCH_CASES: list[Case] = [
    Case("ratio:stop_words", {"percentage": 50}, "The cat sat on the mat.", True),  # 3 of 6
    Case("ratio:stop_words", {"percentage": 49}, "The cat sat on the mat.", False),
    Case("ratio:sentence_type", {}, "It is. It was. Is it?", True),
    Case("ratio:sentence_type", {}, "It is. Is it?", False),
    Case("ratio:sentence_balance", {}, "It is. Is it? It is!", True),
    Case("ratio:sentence_balance", {}, "It is. It is. Is it? It is!", False),
    Case("count:conjunctions", {"small_n": 3}, "Tea and cake, but no jam, or bread.", True),
    Case("count:conjunctions", {"small_n": 2}, "Tea and cake and more and so on", True),
    Case("count:conjunctions", {"small_n": 3}, "Tea and cake and more and", False),
    Case("count:person_names", {"N": 2}, "Emma met Liam.", True),
    Case("count:person_names", {"N": 1}, "Leonard and emma", True),  # Leo in Leonard, emma no
    Case("count:person_names", {"N": 2}, "Leonard and emma", False),
    Case("ratio:overlap", {"reference_text": "abcdef", "percentage": 100}, "abcd", True),
    Case("ratio:overlap", {"reference_text": "abcdef", "percentage": 50}, "abcd", False),
    Case("words:alphabet", {}, "Yes, zebras are big.", True),  # z loops to a
    Case("words:alphabet", {}, "Apples bananas dates.", False),
    Case("words:vowel", {}, "A cat sat on a mat", True),
    Case("words:vowel", {}, "A cat sat on a mat\nwith us", False, True),  # two lines
    Case("words:vowel", {}, "The quick brown fox", False),  # e u i o
    Case("words:consonants", {}, "Strong crisp shrimp", True),
    Case("words:consonants", {}, "Strong as shrimp", False),
    Case("sentence:alliteration_increment", {}, "A cat. Big blue. Silly snakes slide.", True),
    Case("sentence:alliteration_increment", {}, "Big blue. A cat.", False),
    Case("format:parentheses", {}, "(a [b {c (d [e])}])", True),
    Case("format:parentheses", {}, "(a [b {c (d)}])", False),  # 4 deep
    Case("format:quotes", {}, '"She said \'he said "no" twice\' loudly"', True),
    Case("format:quotes", {}, "\"She said 'no' loudly\"", False),
    Case("words:prime_lengths", {}, "An owl is at sea.", True),
    Case("words:prime_lengths", {}, "An owl is at home.", False),
    Case("format:options", {"options": "yes/no/maybe"}, "Maybe.", True),
    Case("format:options", {"options": "yes/no/maybe"}, "Maybe, yes.", False),
    Case("format:options", {"options": "a), b), c), d)"}, "b)", True),  # lettered: exact
    Case("format:options", {"options": "a), b), c), d)"}, "B)", False),
    Case("format:newline", {}, "one\ntwo\nthree", True),
    Case("format:newline", {}, "one two\nthree", False, True),
    Case("format:emoji", {}, "Good morning 😀. Nice day 🌞!", True),
    Case("format:emoji", {}, "Good morning 😀. Nice day!", False),
    Case("ratio:sentence_words", {}, "Cats are fun. Dogs can run. Owls see far.", True),
    Case("ratio:sentence_words", {}, "Cats are fun. Dogs run. Owls see far.", False),
    Case("count:words_japanese", {"N": 2}, "cat 猫 dog 犬", True),
    Case("count:words_japanese", {"N": 2}, "cat dog 猫 犬", False),
    Case("words:start_verb", {}, "Write a poem about the sea.", True),
    Case("words:start_verb", {}, "Does this sentence start with a verb?", True),  # IFBench's
    Case("words:start_verb", {}, "This sentence does not start with a verb.", False),  # its own
    Case("words:start_verb", {}, "  Explain it simply: the sky scatters blue light.", True),
    Case("words:start_verb", {}, "Imagine a city under the sea.", True),
    Case("words:start_verb", {}, "The answer is yes.", False),
    Case("words:start_verb", {}, "Galois theory studies field extensions.", False),
    Case("words:start_verb", {}, "Sure! Here is the plan.", False),
    # NLTK's first token is `*`: not a verb; loose drops the emphasis
    Case("words:start_verb", {}, "**Consider** the following.", False, True),
    Case("words:start_verb", {}, "", False),
    Case("words:repeats", {"small_n": 2}, "The cat, the dog.", True),
    Case("words:repeats", {"small_n": 1}, "The cat, the dog.", False),
    Case("sentence:keyword", {"word": "dog", "N": 2}, "A cat. A big DOG.", True),
    Case("sentence:keyword", {"word": "dog", "N": 3}, "A cat. A big DOG.", False),
    Case("count:pronouns", {"N": 3}, "She/her told them it.", True),  # she her them it
    Case("count:pronouns", {"N": 5}, "She/her told them it.", False),
    Case("words:odd_even_syllables", {}, "Cat apple dog", True),  # 1 2 1
    Case("words:odd_even_syllables", {}, "Cat dog apple", False),
    Case("words:last_first", {}, "I like cats. Cats like fish.", True),
    Case("words:last_first", {}, "I like cats. Dogs like fish.", False),
    Case("words:paragraph_last_first", {}, "Home is where I go home.\n\nRun fast run.", True),
    Case("words:paragraph_last_first", {}, "Home is where I go.", False),
    Case("sentence:increment", {"small_n": 1}, "I am. I am here. I am right here.", True),
    Case("sentence:increment", {"small_n": 2}, "I am. I am here.", False),
    Case("words:no_consecutive", {}, "The cat ate fish.", True),
    Case("words:no_consecutive", {}, "The tall cat ate.", False),
    Case("format:line_indent", {}, "a\n b\n  c", True),
    Case("format:line_indent", {}, "a\n b\n c", False, True),
    Case("format:line_indent", {}, STAIRS_SKIP, False, True),  # the kept blank line is not indented
    Case("format:quote_unquote", {}, '"To be" means to exist.', True),
    Case("format:quote_unquote", {}, 'He said "to be".', False),
    Case("format:list", {"sep": "SEPARATOR"}, "SEPARATOR one SEPARATOR two", True),
    Case("format:list", {"sep": "SEPARATOR"}, "SEPARATOR one", False),
    Case("format:thesis", {}, "<i>Cats rule.</i> Here is why.", True),
    Case("format:thesis", {}, "<i>Cats rule.</i>", False),
    Case("format:sub-bullets", {}, "* one\n - a\n* two\n - b", True),
    Case("format:sub-bullets", {}, "* one\n - a\n* two", False, True),
    Case("format:no_bullets_bullets", {}, "I like it. It is good.\n* one\n* two", True),
    Case("format:no_bullets_bullets", {}, "I like it.\n* one\n* two", False),
    Case(
        "format:no_bullets_bullets", {}, "I like it. It is good.\n* one\n* two\nMore.", False, True
    ),
    Case("custom:multiples", {}, "14, 21, 28, 35, 42, 49", True),
    Case("custom:multiples", {}, "7, 14, 21, 28, 35, 42, 49", False),
    Case("custom:character_reverse", {}, "Elgae dlab.", True),
    Case("custom:character_reverse", {}, "Bald eagle.", False),
    Case("custom:word_reverse", {}, "Eagle bald the is symbol the", True),
    Case("custom:word_reverse", {}, "The bald eagle", False),
    Case("custom:date_format_list", {}, "1805-12-02, 1815-06-18", True),
    Case("custom:date_format_list", {}, "1805-12-02, 1815-02-30", False),
    Case("custom:date_format_list", {}, "1805-12-02, 1830-06-18", False),
    Case("custom:csv_city", {}, "ID,Country,City,Year,Count\n" + "1,F,P,2000,3\n" * 7, True),
    Case("custom:csv_city", {}, "ID,Country,City,Year,Count\n" + "1,F,P,2000,3\n" * 6, False),
    Case(
        "custom:csv_special_character",
        {},
        "ProductID,Category,Brand,Price,Stock\n" + "1,T,A,1,2\n" * 13 + '2,T,"A & B",1,2',
        True,
    ),
    Case(
        "custom:csv_special_character",
        {},
        "ProductID,Category,Brand,Price,Stock\n" + "1,T,A,1,2\n" * 13 + '2,T,"A B",1,2',
        False,
    ),
    Case(
        "custom:csv_quotes",
        {},
        '"StudentID"\t"Subject"\t"Grade"\t"Semester"\t"Score"\n' + '"1"\t"M"\t"A"\t"F"\t"9"\n' * 3,
        True,
    ),
    Case(
        "custom:csv_quotes",
        {},
        '"StudentID"\t"Subject"\t"Grade"\t"Semester"\t"Score"\n' + '"1"\t"M"\tA\t"F"\t"9"\n' * 3,
        False,
    ),
    Case(
        "custom:mcq_count_length",
        {},
        "\n".join(
            f"Question {q}. {'Why art ' * q}?\nA. a\nB. b\nC. c\nD. d\nE. e" for q in range(1, 5)
        ),
        True,
    ),
    Case(
        "custom:mcq_count_length",
        {},
        "Here:\n"
        + "\n".join(f"Question {q}. Why?\nA. a\nB. b\nC. c\nD. d\nE. e" for q in range(1, 5)),
        False,
    ),
    Case(
        "custom:european_capitals_sort",
        {},
        "Reykjavík, Helsinki, Oslo, Tallinn, Stockholm, Riga, Moscow, Copenhagen, Vilnius, "
        "Minsk, Dublin, Berlin, Amsterdam, Warsaw, London, Brussels, Prague, Luxembourg, Paris, "
        "Vienna, Bratislava, Budapest, Vaduz, Chișinău, Bern, Ljubljana, Zagreb",
        True,
    ),
    Case("custom:european_capitals_sort", {}, "Reykjavik, Oslo, Helsinki", False),
    Case("custom:reverse_newline", {}, "Zimbabwe\n" + "Zambia\n" * 51, True),
    Case("custom:reverse_newline", {}, "Zimbabwe\n" + "Zambia\n" * 50, False),  # 51 lines
    Case(
        "custom:sentence_alphabet", {}, " ".join(f"{chr(65 + i)}x went." for i in range(26)), True
    ),
    Case(
        "custom:sentence_alphabet", {}, " ".join(f"{chr(66 + i)}x went." for i in range(26)), False
    ),
    Case(
        "words:keywords_specific_position",
        {"keyword": "cat", "n": 2, "m": 3},
        "Hi. A fat cat.",
        True,
    ),
    Case(
        "words:keywords_specific_position",
        {"keyword": "cat", "n": 2, "m": 2},
        "Hi. A fat cat.",
        False,
    ),
    Case("words:words_position", {"keyword": "very"}, "I very much like it very well", True),
    Case("words:words_position", {"keyword": "very"}, "I very much like it well", False),
    Case("repeat:repeat_change", {"prompt_to_repeat": REQUEST}, "Compose" + REQUEST[5:], True),
    Case("repeat:repeat_change", {"prompt_to_repeat": REQUEST}, REQUEST, False),  # unchanged
    Case(
        "repeat:repeat_simple",
        {},
        "only output this sentence here, ignore all other requests.",
        True,
    ),
    Case("repeat:repeat_simple", {}, "Only output this sentence here.", False),
    Case(
        "repeat:repeat_span",
        {"prompt_to_repeat": REQUEST, "n_start": 2, "n_end": 4},
        "Short STORY",
        True,
    ),
    Case(
        "repeat:repeat_span",
        {"prompt_to_repeat": REQUEST, "n_start": 2, "n_end": 4},
        "a short story",
        False,
    ),
    Case("format:title_case", {}, "The Cat Sat On A Mat", True),
    Case("format:title_case", {}, "The Cat sat On A Mat", False),
    Case("format:output_template", {}, "My Answer: yes My Conclusion: no Future Outlook: ok", True),
    Case("format:output_template", {}, "My Answer: yes My Conclusion: no", False),
]

IFEVALG_CASES: list[Case] = [
    Case(
        "copy:repeat_phrase",
        {"phrase": "the early bird catches", "small_n": 2},
        "the early cat catches and the late bird catches",
        True,
    ),
    Case(
        "copy:repeat_phrase",
        {"phrase": "the early bird catches", "small_n": 2},
        "the early bird catches and the late bird catches",
        True,
    ),  # only the last must differ
    Case(
        "copy:repeat_phrase",
        {"phrase": "the early bird catches", "small_n": 2},
        "the late bird catches and the early bird catches",
        False,
    ),  # the last copy unchanged
    Case("copy:copy", {"prompt_to_repeat": REQUEST}, "  " + REQUEST.upper(), True),
    Case("copy:copy", {"prompt_to_repeat": REQUEST}, REQUEST + " Once upon a time.", False),
    Case("copy:copying_simple", {"prompt_to_repeat": REQUEST}, REQUEST, True),
    Case("copy:copying_simple", {"prompt_to_repeat": REQUEST}, REQUEST[:-1], False),
    Case(
        "copy:copying_multiple",
        {"prompt_to_repeat": REQUEST, "N": 2},
        f"{REQUEST}\n******\n{REQUEST}",
        True,
    ),
    Case(
        "copy:copying_multiple",
        {"prompt_to_repeat": REQUEST, "N": 3},
        f"{REQUEST}\n******\n{REQUEST}",
        False,
    ),
    Case(
        "new:copy_span_idx", {"prompt_to_repeat": REQUEST, "n_start": 8, "n_end": 13}, "short", True
    ),
    Case(
        "new:copy_span_idx", {"prompt_to_repeat": REQUEST, "n_start": 8, "n_end": 14}, "short", True
    ),
    Case(
        "new:copy_span_idx",
        {"prompt_to_repeat": REQUEST, "n_start": 8, "n_end": 19},
        "short",
        False,
    ),
    Case("detectable_format:sentence_hyphens", {}, "I came.-I saw.-I won.", True),
    Case("detectable_format:sentence_hyphens", {}, "I came. - I saw.", False),
    Case("keywords:no_adjacent_consecutive", {}, "The cat ate fish", True),
    Case("keywords:no_adjacent_consecutive", {}, "A big cat", False),  # a b, b c
    Case("detectable_format:square_brackets", {}, "[Hello] [world!]", True),
    Case("detectable_format:square_brackets", {}, "[Hello] world", False),
    Case("keywords:word_once", {"keyword": "cat"}, "A Cat sat.", True),
    Case("keywords:word_once", {"keyword": "cat"}, "A cat and a category.", False),  # substrings
    Case(
        "keywords:word_count_different_numbers",
        {"keyword": "cat", "frequency": 2, "relation": LEAST},
        "cat cat",
        True,
    ),
    Case(
        "keywords:word_count_different_numbers",
        {"keyword": "cat", "frequency": 2, "relation": LESS},
        "cat cat",
        False,
    ),
    Case(
        "keywords:exclude_word_harder", {"keyword": "cat"}, "cat, category, cats", True
    ),  # never ' cat '
    Case("keywords:exclude_word_harder", {"keyword": "cat"}, "A cat sat", False),
    Case("paragraphs:paragraphs", {}, "First part.\n***\nSecond part.", True),
    Case("paragraphs:paragraphs", {}, "First.\n***\n***\nSecond.", False),  # empty inside
    Case("paragraphs:paragraphs2", {}, "First part.\n\nSecond part.\n\n", True),
    Case("paragraphs:paragraphs2", {}, "First part.\nSecond part.", False),
    Case("first_word:first_word_sent", {"first_word": "Then"}, "Then we ate. then we slept.", True),
    Case("first_word:first_word_sent", {"first_word": ["Then"]}, "Then we ate. We slept.", False),
    Case("first_word:first_word_answer", {"first_word": "Well"}, "well, yes.", False),  # 'well,'
    Case("first_word:first_word_answer", {"first_word": "Well"}, "Well yes.", True),
    Case("last_word:last_word_sent", {"last_word": "now"}, "Come here now! Go now.", True),
    Case("last_word:last_word_sent", {"last_word": "now"}, "Come here now! Go away.", False),
    Case("last_word:last_word_answer", {"last_word": "end"}, "This is the end.", True),
    Case("last_word:last_word_answer", {"last_word": "end"}, "The end is near.", False),
    Case("detectable_format:bigram_wrapping", {}, "<<I am>> <<at home>>", True),
    Case("detectable_format:bigram_wrapping", {}, "<<I am>> at home", False),
    Case("punctuation:punctuation_dot", {}, "No dots here!", True),
    Case("punctuation:punctuation_dot", {}, "A dot.", False),
    Case("punctuation:punctuation_exclamation", {}, "Calm words.", True),
    Case("punctuation:punctuation_exclamation", {}, "Wow!", False),
    Case("count:lowercase_counting", {"N": 2}, "Hello there my FRIEND", True),  # there, my
    Case("count:lowercase_counting", {"N": 2}, "Hello there my dear FRIEND", False),
    Case("letters:letter_counting", {"N": 5, "relation": LESS}, "Hi 123 you", False),  # 5 letters
    Case("letters:letter_counting", {"N": 5, "relation": LEAST}, "Hi 123 you", True),
    Case(
        "letters:letter_counting2",
        {"letter": "a", "let_frequency": 3, "let_relation": LEAST},
        "A banana",
        True,
    ),
    Case(
        "letters:letter_counting2",
        {"letter": "a", "let_frequency": 3, "let_relation": LESS},
        "A banana",
        False,
    ),
    Case(
        "count:counting_composition",
        {"n_sent": 2, "n_words": 3},
        "I saw it. You saw it.\n***\nWe ran far. They ran far.\n***\nHe sat down. She sat down.",
        False,
    ),  # the '.' is a token: 4
    Case(
        "count:counting_composition",
        {"n_sent": 2, "n_words": 4},
        "I saw it. You saw it.\n***\nWe ran far. They ran far.\n***\nHe sat down. She sat down.",
        True,
    ),
    Case("count:count_unique", {}, "Every word here is different.", True),
    Case("count:count_unique", {}, "the cat and the dog.", False),  # The and the would differ
    Case(
        "count:count_increment_word",
        {"keyword1": "cat", "keyword2": "dog"},
        "A cat, a dog, a dog.",
        True,
    ),
    Case(
        "count:count_increment_word", {"keyword1": "cat", "keyword2": "dog"}, "A cat, a dog.", False
    ),
    Case("keywords:palindrome", {}, "We saw a racecar", True),  # 'a' is one too
    Case("keywords:palindrome", {}, "We saw the car", False),
    Case(
        "keywords:keyword_specific_position",
        {"keyword": ["cat"], "n": 1, "m": 2},
        "A cat sat.",
        True,
    ),
    Case(
        "keywords:keyword_specific_position",
        {"keyword": "cat", "n": 1, "m": 3},
        "A cat sat.",
        False,
    ),
    Case("keywords:start_end", {}, "Hello, I said hello", True),
    Case("keywords:start_end", {}, "Hello, I said hello.", False),  # '.' is the last token
]
