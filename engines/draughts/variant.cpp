#include "engines/draughts/variant.h"

namespace sb::draughts {

namespace {

const Variant kVariants[] = {
    {VariantKind::Brazilian, "brazilian", 8, true, true, true, Side::First, 26, 12},
    {VariantKind::International, "international", 10, true, true, true, Side::First, 20, 20},
    {VariantKind::English, "english", 8, false, false, false, Side::Second, 21, 12},
};

}  // namespace

const Variant* find_variant(std::string_view id) {
  for (const Variant& v : kVariants)
    if (v.id == id) return &v;
  return nullptr;
}

const Variant* find_variant_by_game_type(int type) {
  for (const Variant& v : kVariants)
    if (v.pdn_game_type == type) return &v;
  return nullptr;
}

}  // namespace sb::draughts
