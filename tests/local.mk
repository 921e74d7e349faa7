# whole-program tests
