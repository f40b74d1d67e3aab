import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tidy_csv import normalise_date, snake_case, tidy  # noqa: E402


class TidyTest(unittest.TestCase):
    def test_headers_become_snake_case(self):
        self.assertEqual(snake_case(" Customer Name "), "customer_name")
        self.assertEqual(snake_case("signupDate"), "signup_date")

    def test_dates_are_iso_or_left_alone(self):
        self.assertEqual(normalise_date("03/02/2026"), "2026-02-03")
        self.assertEqual(normalise_date("March 1, 2026"), "2026-03-01")
        self.assertIsNone(normalise_date("next Tuesday"))

    def test_blank_and_duplicate_rows_are_dropped(self):
        rows = [["Name", "Created At"], ["a", "2026-01-01"], ["", ""], [" a ", "2026-01-01"]]
        cleaned, report = tidy(rows)
        self.assertEqual(cleaned, [["name", "created_at"], ["a", "2026-01-01"]])
        self.assertEqual((report.blank_rows, report.duplicates, report.cells_trimmed), (1, 1, 1))


if __name__ == "__main__":
    unittest.main()
