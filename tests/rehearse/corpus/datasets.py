"""Datasets for the grader corpus: a few task families, as rows the multiply template's dataset takes.

Each row has `system_prompt`, `user_prompt` and `ground_truth` (always a string, as the platform delivers
it). List and object labels (`tags`, `record`) are JSON-encoded strings; the graders parse them with
json.loads. Every prompt asks for the final answer on its own last line after `#### `, like the template.
Labels differ from row to row, so another row's label is a genuinely wrong answer.
"""

from __future__ import annotations

import json

_AFTER = "You may think it through first, then give only the final answer on its own last line, after '#### '"

NUMBERS_SYSTEM = f"Solve the problem. {_AFTER} (for example: #### 42)."
WORDS_SYSTEM = f"Answer the question in a word or a short name. {_AFTER} (for example: #### Paris)."
CHOICE_SYSTEM = (
    "Answer the multiple-choice question: exactly one of the options A, B, C and D is right. "
    f"{_AFTER}, as the letter of that option alone (for example: #### B)."
)

TAGS = (
    "billing",
    "refund",
    "shipping",
    "delivery-delay",
    "account",
    "login",
    "password",
    "bug",
    "feature-request",
    "praise",
    "complaint",
    "security",
)
TAGS_SYSTEM = (
    "Tag the customer message with every tag that applies (one to three of them), chosen only from this "
    f"fixed set of 12 tags: {', '.join(TAGS)}. {_AFTER}, as a JSON list of tags "
    '(for example: #### ["shipping", "complaint"]).'
)
RECORD_SYSTEM = (
    "Answer with the facts the question asks for, as one JSON object with exactly the fields it names "
    f'(strings for names, an integer for a year). {_AFTER}, on one line (for example: #### {{"city": "London", '
    '"country": "United Kingdom", "year": 1851}).'
)


def _rows(system: str, pairs: list[tuple[str, object]]) -> list[dict]:
    rows = []
    for user, truth in pairs:
        label = truth if isinstance(truth, str) else json.dumps(truth)
        rows.append({"system_prompt": system, "user_prompt": user, "ground_truth": label})
    return rows


NUMBERS = _rows(
    NUMBERS_SYSTEM,
    [
        ("What is 17 multiplied by 23?", "391"),
        ("A thermometer reads 4 degrees. The temperature drops by 11 degrees. What does it read now?", "-7"),
        ("What is 7.5 divided by 2?", "3.75"),
        ("A pen costs 1.20 dollars. How many dollars do 5 pens cost?", "6"),
        ("What is 144 divided by 12, plus 8?", "20"),
        ("What is 2 to the power of 10?", "1024"),
        ("What is 0.1 plus 0.25?", "0.35"),
        ("What is 15 minus 42?", "-27"),
        ("A train runs at 62.5 km per hour for 4 hours. How many km does it cover?", "250"),
        ("What is 9 times 9 times 9?", "729"),
        ("What is -4.5 multiplied by 3?", "-13.5"),
    ],
)

WORDS = _rows(
    WORDS_SYSTEM,
    [
        ("What is the capital of Japan?", "Tokyo"),
        ("What is the capital of Australia?", "Canberra"),
        ("Which element has atomic number 8?", "Oxygen"),
        ("What is the largest planet in the Solar System?", "Jupiter"),
        ("What is the longest river in Africa?", "Nile"),
        ("What is the capital of Canada?", "Ottawa"),
        ("Which noble gas is the lightest?", "Helium"),
        ("What is the chemical symbol for gold?", "Au"),
        ("Who wrote the play Hamlet?", "William Shakespeare"),
        ("What is the highest mountain above sea level?", "Mount Everest"),
    ],
)


def _choice(question: str, options: tuple[str, str, str, str]) -> str:
    return question + "\n" + "\n".join(f"{letter}) {text}" for letter, text in zip("ABCD", options))


CHOICE = _rows(
    CHOICE_SYSTEM,
    [
        (_choice("Which planet is known as the Red Planet?", ("Venus", "Mars", "Jupiter", "Saturn")), "B"),
        (_choice("Which is the largest ocean on Earth?", ("Pacific", "Atlantic", "Indian", "Arctic")), "A"),
        (
            _choice(
                "Which gas do plants take from the air for photosynthesis?",
                ("Oxygen", "Nitrogen", "Carbon dioxide", "Helium"),
            ),
            "C",
        ),
        (_choice("How many sides does a hexagon have?", ("5", "8", "7", "6")), "D"),
        (
            _choice("Who wrote Pride and Prejudice?", ("Charlotte Brontë", "Jane Austen", "Mary Shelley", "George Eliot")),
            "B",
        ),
        (_choice("At what temperature in Celsius does water boil at sea level?", ("100", "90", "120", "80")), "A"),
        (_choice("Which is the smallest prime number?", ("0", "1", "3", "2")), "D"),
        (_choice("On which continent is Kenya?", ("Asia", "South America", "Africa", "Europe")), "C"),
        (_choice("Which metal is liquid at room temperature?", ("Iron", "Mercury", "Copper", "Zinc")), "B"),
        (_choice("What is the square root of 81?", ("7", "8", "10", "9")), "D"),
    ],
)

TAGS_ROWS = _rows(
    TAGS_SYSTEM,
    [
        ("I was charged twice this month, please give me my money back.", ["billing", "refund"]),
        ("My package is two weeks late and the tracking page has not changed.", ["shipping", "delivery-delay"]),
        ("I can't log in and the password reset email never arrives.", ["login", "password"]),
        ("Love the new dashboard, great job team!", ["praise"]),
        ("It would be great if you added a dark mode to the app.", ["feature-request"]),
        ("The app crashes whenever I open the settings page. This is unacceptable.", ["bug", "complaint"]),
        ("Someone changed the email address on my account without my permission.", ["account", "security"]),
        ("Your last invoice shows the wrong VAT number.", ["billing"]),
        (
            "The order arrived a week late and the box was crushed. I want my money back.",
            ["delivery-delay", "refund", "complaint"],
        ),
        (
            "I think my password leaked: someone logged in from another country last night.",
            ["password", "security", "login"],
        ),
    ],
)

RECORD = _rows(
    RECORD_SYSTEM,
    [
        (
            "Where and in which year were the first modern Olympic Games held? Fields: city, country, year.",
            {"city": "Athens", "country": "Greece", "year": 1896},
        ),
        (
            "Where and in which year was the Eiffel Tower completed? Fields: city, country, year.",
            {"city": "Paris", "country": "France", "year": 1889},
        ),
        ("Where is the Colosseum? Fields: city, country.", {"city": "Rome", "country": "Italy"}),
        (
            "Where and in which year did the Berlin Wall fall? Fields: city, country, year.",
            {"city": "Berlin", "country": "Germany", "year": 1989},
        ),
        (
            "Where and in which year did the Sydney Opera House open? Fields: city, country, year, continent.",
            {"city": "Sydney", "country": "Australia", "year": 1973, "continent": "Oceania"},
        ),
        (
            "Where and in which year was the Statue of Liberty dedicated? Fields: city, country, year.",
            {"city": "New York", "country": "United States", "year": 1886},
        ),
        ("Where is Machu Picchu? Fields: country, continent.", {"country": "Peru", "continent": "South America"}),
        ("Where is the Taj Mahal? Fields: city, country.", {"city": "Agra", "country": "India"}),
        (
            "Where and in which year was the first FIFA World Cup final played? Fields: city, country, year.",
            {"city": "Montevideo", "country": "Uruguay", "year": 1930},
        ),
        (
            "Where and in which year were the first Summer Olympics held in Asia? Fields: city, country, year, continent.",
            {"city": "Tokyo", "country": "Japan", "year": 1964, "continent": "Asia"},
        ),
    ],
)

DATASETS: dict[str, list[dict]] = {
    "numbers": NUMBERS,
    "words": WORDS,
    "choice": CHOICE,
    "tags": TAGS_ROWS,
    "record": RECORD,
}
