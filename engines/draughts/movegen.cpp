#include "engines/draughts/movegen.h"

#include <array>
#include <memory>

namespace sb::draughts {

namespace {

// ---------------------------------------------------------------------------
// Compile-time geometry and rules: one instantiation per game keeps every
// shift a constant in the hot loops.

template <int N_, bool kBackCapture_, bool kFlying_, bool kMajority_>
struct Traits {
  static constexpr int N = N_;
  static constexpr int kHalf = N / 2;
  static constexpr int kSquares = N * N / 2;
  static constexpr bool kBackCapture = kBackCapture_;
  static constexpr bool kFlying = kFlying_;
  static constexpr bool kMajority = kMajority_;
  static constexpr int kUL = -(kHalf + 1), kUR = -kHalf, kDL = kHalf, kDR = kHalf + 1;

  static constexpr uint64_t make_valid() {
    uint64_t v = 0;
    for (int s = 0; s < kSquares; ++s) v |= uint64_t{1} << (s + s / N);
    return v;
  }
  static constexpr uint64_t make_row(int first, int count) {
    uint64_t v = 0;
    for (int s = first; s < first + count; ++s) v |= uint64_t{1} << (s + s / N);
    return v;
  }
  static constexpr uint64_t kValid = make_valid();
  // Promotion rows: White promotes on the top row, Black on the bottom row.
  static constexpr uint64_t kPromotion[2] = {make_row(0, kHalf), make_row(kSquares - kHalf, kHalf)};
};

using Brazilian = Traits<8, true, true, true>;
using International = Traits<10, true, true, true>;
using English = Traits<8, false, false, false>;

template <int D>
inline uint64_t shift(uint64_t b) {
  if constexpr (D > 0)
    return b << D;
  else
    return b >> -D;
}

// Every square reachable from `from` along direction D over `empty` squares
// (occluded fill, Kogge-Stone); includes `from`. Ghost bits are never empty, so
// the fill stops at the edge of the board.
template <int D, int N>
inline uint64_t fill(uint64_t from, uint64_t empty) {
  uint64_t g = from, p = empty;
  g |= p & shift<D>(g);
  p &= shift<D>(p);
  g |= p & shift<2 * D>(g);
  p &= shift<2 * D>(p);
  g |= p & shift<4 * D>(g);
  if constexpr (N > 8) {
    p &= shift<4 * D>(p);
    g |= p & shift<8 * D>(g);
  }
  return g;
}

constexpr int kMaxPath = 64;

// Collects moves for perft: no paths, duplicates dropped unless kept.
struct CountSink {
  std::vector<RawMove>* out;
  bool keep_duplicates;

  static constexpr bool kWantsPath = false;
  void reset() { out->clear(); }
  void capture(int from, int to, uint64_t captured, int count, const uint8_t*, int) {
    RawMove m{captured, static_cast<uint8_t>(from), static_cast<uint8_t>(to), static_cast<uint8_t>(count)};
    if (!keep_duplicates)
      for (const RawMove& o : *out)
        if (o.same_effect(m)) return;
    out->push_back(m);
  }
  void quiet(int from, int to) { out->push_back({0, static_cast<uint8_t>(from), static_cast<uint8_t>(to), 0}); }
};

// Collects moves with their paths, every path kept.
struct PathSink {
  std::vector<PathMove>* out;

  static constexpr bool kWantsPath = true;
  void reset() { out->clear(); }
  void capture(int from, int to, uint64_t captured, int count, const uint8_t* path, int len) {
    PathMove pm;
    pm.move = {captured, static_cast<uint8_t>(from), static_cast<uint8_t>(to), static_cast<uint8_t>(count)};
    pm.path.assign(path, path + len);
    out->push_back(std::move(pm));
  }
  void quiet(int from, int to) {
    PathMove pm;
    pm.move = {0, static_cast<uint8_t>(from), static_cast<uint8_t>(to), 0};
    pm.path = {static_cast<uint8_t>(to)};
    out->push_back(std::move(pm));
  }
};

template <class R>
class Gen {
 public:
  explicit Gen(const Board& b) : white_(b.side == Side::First) {
    own_ = b.pieces[index_of(b.side)];
    opp_ = b.pieces[1 - index_of(b.side)];
    own_kings_ = own_ & b.kings;
    own_men_ = own_ & ~b.kings;
    empty_ = R::kValid & ~(own_ | opp_);
  }

  // Generates the captures into `sink` (after reset()); returns whether there were any.
  // `majority`: keep only the captures that take the most pieces.
  template <class Sink>
  bool captures(Sink& sink, bool majority) {
    majority_ = majority;
    best_ = 0;
    sink.reset();
    for (uint64_t men = men_that_can_jump(); men; men &= men - 1) {
      const uint64_t from = men & (0 - men);
      piece_empty_ = empty_ | from;
      from_ = lowest_bit(from);
      man_jumps(sink, from, 0, 0);
    }
    for (uint64_t kings = own_kings_; kings; kings &= kings - 1) {
      const uint64_t from = kings & (0 - kings);
      piece_empty_ = empty_ | from;
      from_ = lowest_bit(from);
      king_jumps(sink, from, 0, 0, 0);
    }
    return best_ > 0;
  }

  // The men with a capture in some direction: only they need the path search.
  uint64_t men_that_can_jump() const {
    // Squares from which a jump in direction D is possible: an opposing piece one
    // step away and an empty square two steps away.
    const uint64_t up = jump_sources<R::kUL>() | jump_sources<R::kUR>();
    const uint64_t down = jump_sources<R::kDL>() | jump_sources<R::kDR>();
    if (!R::kBackCapture) return own_men_ & (white_ ? up : down);
    return own_men_ & (up | down);
  }
  template <int D>
  uint64_t jump_sources() const {
    return shift<-D>(shift<-D>(empty_) & opp_);
  }

  template <class Sink>
  void quiet_moves(Sink& sink) {
    if (white_) {
      men_steps<R::kUL>(sink);
      men_steps<R::kUR>(sink);
    } else {
      men_steps<R::kDL>(sink);
      men_steps<R::kDR>(sink);
    }
    for (uint64_t kings = own_kings_; kings; kings &= kings - 1) {
      const uint64_t from = kings & (0 - kings);
      king_steps<R::kUL>(sink, from);
      king_steps<R::kUR>(sink, from);
      king_steps<R::kDL>(sink, from);
      king_steps<R::kDR>(sink, from);
    }
  }

  uint64_t count_quiet_moves() const {
    uint64_t n = 0;
    if (white_)
      n = bit_count(shift<R::kUL>(own_men_) & empty_) + bit_count(shift<R::kUR>(own_men_) & empty_);
    else
      n = bit_count(shift<R::kDL>(own_men_) & empty_) + bit_count(shift<R::kDR>(own_men_) & empty_);
    if (own_kings_)
      n +=
          king_move_count<R::kUL>() + king_move_count<R::kUR>() + king_move_count<R::kDL>() + king_move_count<R::kDR>();
    return n;
  }

  bool any_capture() const {
    const uint64_t forward_men = own_men_, backward_men = R::kBackCapture ? own_men_ : 0;
    const uint64_t up = white_ ? forward_men : backward_men;
    const uint64_t down = white_ ? backward_men : forward_men;
    if (R::kFlying) {
      if (short_capture<R::kUL>(up) || short_capture<R::kUR>(up) || short_capture<R::kDL>(down) ||
          short_capture<R::kDR>(down))
        return true;
      return own_kings_ &&
             (long_capture<R::kUL>() || long_capture<R::kUR>() || long_capture<R::kDL>() || long_capture<R::kDR>());
    }
    return short_capture<R::kUL>(up | own_kings_) || short_capture<R::kUR>(up | own_kings_) ||
           short_capture<R::kDL>(down | own_kings_) || short_capture<R::kDR>(down | own_kings_);
  }

  bool any_quiet_move() const {
    const uint64_t men_targets = white_ ? (shift<R::kUL>(own_men_) | shift<R::kUR>(own_men_))
                                        : (shift<R::kDL>(own_men_) | shift<R::kDR>(own_men_));
    const uint64_t k = own_kings_;
    const uint64_t king_targets = shift<R::kUL>(k) | shift<R::kUR>(k) | shift<R::kDL>(k) | shift<R::kDR>(k);
    return ((men_targets | king_targets) & empty_) != 0;
  }

 private:
  template <int D>
  bool short_capture(uint64_t pieces) const {
    return (shift<D>(shift<D>(pieces) & opp_) & empty_) != 0;
  }
  template <int D>
  bool long_capture() const {
    const uint64_t reach = fill<D, R::N>(own_kings_, empty_);
    return (shift<D>(shift<D>(reach) & opp_) & empty_) != 0;
  }
  template <int D>
  uint64_t king_move_count() const {
    if constexpr (R::kFlying) return bit_count(fill<D, R::N>(own_kings_, empty_) & ~own_kings_);
    return bit_count(shift<D>(own_kings_) & empty_);
  }

  template <int D, class Sink>
  void men_steps(Sink& sink) {
    for (uint64_t to = shift<D>(own_men_) & empty_; to; to &= to - 1) {
      const int t = lowest_bit(to);
      sink.quiet(t - D, t);
    }
  }
  template <int D, class Sink>
  void king_steps(Sink& sink, uint64_t from) {
    const int f = lowest_bit(from);
    for (uint64_t sq = shift<D>(from) & empty_; sq; sq = shift<D>(sq) & empty_) {
      sink.quiet(f, lowest_bit(sq));
      if (!R::kFlying) break;
    }
  }

  template <class Sink>
  void leaf(Sink& sink, uint64_t at, uint64_t captured, int count) {
    if (majority_) {
      if (count < best_) return;
      if (count > best_) {
        sink.reset();
        best_ = count;
      }
    } else if (count > best_) {
      best_ = count;
    }
    sink.capture(from_, lowest_bit(at), captured, count, path_.data(), count);
  }

  // One jump of a man (or of an English king) in direction D from `at`.
  template <int D, class Sink>
  bool short_jump(Sink& sink, uint64_t at, uint64_t captured, int count, bool king) {
    const uint64_t over = shift<D>(at) & opp_ & ~captured;
    if (!over) return false;
    const uint64_t land = shift<D>(over) & piece_empty_;
    if (!land) return false;
    if constexpr (Sink::kWantsPath) path_[count] = static_cast<uint8_t>(lowest_bit(land));
    if (king)
      king_jumps(sink, land, captured | over, count + 1, D);
    else
      man_jumps(sink, land, captured | over, count + 1);
    return true;
  }

  template <class Sink>
  void man_jumps(Sink& sink, uint64_t at, uint64_t captured, int count) {
    bool more = false;
    if (white_ || R::kBackCapture) {
      more |= short_jump<R::kUL>(sink, at, captured, count, false);
      more |= short_jump<R::kUR>(sink, at, captured, count, false);
    }
    if (!white_ || R::kBackCapture) {
      more |= short_jump<R::kDL>(sink, at, captured, count, false);
      more |= short_jump<R::kDR>(sink, at, captured, count, false);
    }
    if (!more && count > 0) leaf(sink, at, captured, count);
  }

  // A flying king jumps a piece at any distance and may land on any empty
  // square beyond it; `came` is the direction of the last jump (0 at the start):
  // turning back along it would cross the piece just taken, which blocks.
  template <int D, class Sink>
  bool long_jump(Sink& sink, uint64_t at, uint64_t captured, int count) {
    uint64_t sq = shift<D>(at);
    while (sq & piece_empty_) sq = shift<D>(sq);
    const uint64_t over = sq & opp_ & ~captured;
    if (!over) return false;
    bool any = false;
    for (uint64_t land = shift<D>(over) & piece_empty_; land; land = shift<D>(land) & piece_empty_) {
      any = true;
      if constexpr (Sink::kWantsPath) path_[count] = static_cast<uint8_t>(lowest_bit(land));
      king_jumps(sink, land, captured | over, count + 1, D);
    }
    return any;
  }

  template <class Sink>
  void king_jumps(Sink& sink, uint64_t at, uint64_t captured, int count, int came) {
    bool more = false;
    if constexpr (R::kFlying) {
      if (came != -R::kUL) more |= long_jump<R::kUL>(sink, at, captured, count);
      if (came != -R::kUR) more |= long_jump<R::kUR>(sink, at, captured, count);
      if (came != -R::kDL) more |= long_jump<R::kDL>(sink, at, captured, count);
      if (came != -R::kDR) more |= long_jump<R::kDR>(sink, at, captured, count);
    } else {
      more |= short_jump<R::kUL>(sink, at, captured, count, true);
      more |= short_jump<R::kUR>(sink, at, captured, count, true);
      more |= short_jump<R::kDL>(sink, at, captured, count, true);
      more |= short_jump<R::kDR>(sink, at, captured, count, true);
    }
    if (!more && count > 0) leaf(sink, at, captured, count);
  }

  bool white_;
  uint64_t own_ = 0, opp_ = 0, own_kings_ = 0, own_men_ = 0, empty_ = 0;
  uint64_t piece_empty_ = 0;  // empty_ plus the moving piece's start square
  int from_ = 0;
  int best_ = 0;
  bool majority_ = true;
  std::array<uint8_t, kMaxPath> path_{};
};

template <class R>
Board apply_move(const Board& b, const RawMove& m) {
  Board n = b;
  const int us = index_of(b.side), them = 1 - us;
  const uint64_t from = uint64_t{1} << m.from, to = uint64_t{1} << m.to;
  n.pieces[us] ^= from ^ to;
  if (b.kings & from)
    n.kings ^= from ^ to;
  else if (to & R::kPromotion[us])
    n.kings |= to;
  n.pieces[them] &= ~m.captured;
  n.kings &= ~m.captured;
  n.side = opponent(b.side);
  return n;
}

template <class R>
std::vector<PathMove> gen_legal_paths(const Board& b) {
  std::vector<PathMove> out;
  PathSink sink{&out};
  Gen<R> gen(b);
  if (!gen.captures(sink, R::kMajority)) gen.quiet_moves(sink);
  return out;
}

template <class R>
std::vector<PathMove> gen_all_capture_paths(const Board& b) {
  std::vector<PathMove> out;
  PathSink sink{&out};
  Gen<R>(b).captures(sink, false);
  return out;
}

// Subtree counts already known, keyed by the whole position and the depth: the
// same position is reached by many move orders, and counting it once is exact.
class PerftCache {
 public:
  explicit PerftCache(int bits) : entries_(size_t{1} << bits), mask_((size_t{1} << bits) - 1) {}

  const uint64_t* find(const Board& b, int depth) const {
    const Entry& e = entries_[index(b, depth)];
    if (e.depth == depth && e.board == b) return &e.count;
    return nullptr;
  }
  void store(const Board& b, int depth, uint64_t count) {
    Entry& e = entries_[index(b, depth)];
    e.board = b;
    e.depth = depth;
    e.count = count;
  }

 private:
  struct Entry {
    Board board;
    uint64_t count = 0;
    int depth = 0;  // 0: empty
  };
  size_t index(const Board& b, int depth) const {
    uint64_t h = b.pieces[0] * 0x9E3779B97F4A7C15ull;
    h ^= (b.pieces[1] + static_cast<uint64_t>(depth)) * 0xC2B2AE3D27D4EB4Full;
    h ^= (b.kings + static_cast<uint64_t>(b.side)) * 0x165667B19E3779F9ull;
    return static_cast<size_t>(h ^ (h >> 29)) & mask_;
  }
  std::vector<Entry> entries_;
  size_t mask_;
};

template <class R>
class Perft {
 public:
  // Subtrees this deep or deeper go through the cache; shallower ones are cheaper to count again.
  static constexpr int kCachedDepth = 3;

  Perft(int depth, bool keep) : lists_(depth + 1), keep_(keep) {
    if (depth >= kCachedDepth + 2) cache_ = std::make_unique<PerftCache>(depth >= 9 ? 18 : 14);
  }

  uint64_t run(const Board& b, int depth) {
    if (cache_ && depth >= kCachedDepth)
      if (const uint64_t* known = cache_->find(b, depth)) return *known;
    Gen<R> gen(b);
    std::vector<RawMove>& list = lists_[depth];
    CountSink sink{&list, keep_};
    if (gen.any_capture()) {
      gen.captures(sink, R::kMajority);
    } else {
      if (depth == 1) return gen.count_quiet_moves();
      sink.reset();
      gen.quiet_moves(sink);
    }
    if (depth == 1) return list.size();
    uint64_t n = 0;
    for (size_t i = 0; i < list.size(); ++i) n += run(apply_move<R>(b, list[i]), depth - 1);
    if (cache_ && depth >= kCachedDepth) cache_->store(b, depth, n);
    return n;
  }

 private:
  std::vector<std::vector<RawMove>> lists_;
  bool keep_;
  std::unique_ptr<PerftCache> cache_;
};

template <class R>
uint64_t gen_perft(const Board& b, int depth, bool keep) {
  if (depth <= 0) return 1;
  return Perft<R>(depth, keep).run(b, depth);
}

template <class R>
bool gen_has_capture(const Board& b) {
  return Gen<R>(b).any_capture();
}

template <class R>
bool gen_has_legal_move(const Board& b) {
  Gen<R> gen(b);
  return gen.any_quiet_move() || gen.any_capture();
}

// Calls f.template operator()<R>() with the compile-time rules of the variant.
template <class F>
decltype(auto) dispatch(VariantKind kind, F&& f) {
  switch (kind) {
    case VariantKind::International:
      return f.template operator()<International>();
    case VariantKind::English:
      return f.template operator()<English>();
    case VariantKind::Brazilian:
      break;
  }
  return f.template operator()<Brazilian>();
}

}  // namespace

MoveGenerator::MoveGenerator(const Variant& variant) : variant_(variant), geometry_(variant.size) {}

std::vector<PathMove> MoveGenerator::legal_paths(const Board& b) const {
  return dispatch(variant_.kind, [&]<class R>() { return gen_legal_paths<R>(b); });
}

std::vector<PathMove> MoveGenerator::all_capture_paths(const Board& b) const {
  return dispatch(variant_.kind, [&]<class R>() { return gen_all_capture_paths<R>(b); });
}

bool MoveGenerator::has_legal_move(const Board& b) const {
  return dispatch(variant_.kind, [&]<class R>() { return gen_has_legal_move<R>(b); });
}

bool MoveGenerator::has_capture(const Board& b) const {
  return dispatch(variant_.kind, [&]<class R>() { return gen_has_capture<R>(b); });
}

Board MoveGenerator::apply(const Board& b, const RawMove& m) const {
  return dispatch(variant_.kind, [&]<class R>() { return apply_move<R>(b, m); });
}

uint64_t MoveGenerator::perft(const Board& b, int depth, bool keep_duplicates) const {
  return dispatch(variant_.kind, [&]<class R>() { return gen_perft<R>(b, depth, keep_duplicates); });
}

}  // namespace sb::draughts
