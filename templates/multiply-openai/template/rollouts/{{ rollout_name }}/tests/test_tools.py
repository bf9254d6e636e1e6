from tools import multiply


def test_multiply_rounds_to_four_places():
    assert multiply(-170.7625, -1003.1735) == 171304.4148


def test_multiply_accepts_integers_and_strings_of_numbers():
    assert multiply(6, 7) == 42.0
    assert multiply("1.5", "2") == 3.0
