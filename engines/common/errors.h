// The errors every module throws for bad input. The command line turns an
// InputError into one line on stderr and exit status 2 (CONTRACT.md); anything
// else that escapes is an internal failure (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace sb {

// Bad input: a malformed FEN, move, option, file. The message names what is
// wrong and where ("FEN 'W:W21-3x': bad square '3x' at column 9").
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A well-formed move that the rules forbid in the given position. The message
// says why in words a player understands.
class IllegalMoveError : public InputError {
 public:
  IllegalMoveError(const std::string& move, const std::string& reason)
      : InputError("illegal move '" + move + "': " + reason), move_(move), reason_(reason) {}
  const std::string& move() const { return move_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string move_;
  std::string reason_;
};

}  // namespace sb
