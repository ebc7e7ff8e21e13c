"""What several ops share: choosing targets, doctor's checks, next-step suggestions, the
evidence report, near twins, and saying why nothing (or a locale) could be read."""
