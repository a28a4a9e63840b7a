// Cờ toán sets through the pipeline: the set learnt from the start position under a look no default knows, then
// a position the learning never saw read with it, every piece given to its own side.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/board_locator.h"
#include "still_board.h"
#include "vision/cell_reader.h"
#include "vision/game_vision.h"
#include "vision/render/colour.h"
#include "vision/render/renderer.h"

namespace sb::vision {
namespace {

using testing::cotoan_start_contents;
using testing::listed;
using testing::read_still;
using testing::render_with_look;
using testing::Rendered;

// The start's pieces on other sites of the middle rows.
// The start's pieces scattered over ranks 3–9.
BoardContents scattered(const BoardContents& start, uint64_t seed) {
  std::vector<std::string> sites;
  for (char f : std::string("abcdefghi"))
    for (int r = 3; r <= 9; ++r) sites.push_back(std::string(1, f) + std::to_string(r));
  return testing::scattered(sites, start, seed);
}

struct Misreads {
  bool learnt = false;
  float count_temperature = 0;      // the learnt set's
  float count_blob_weight = 0;      // the learnt set's
  std::vector<std::string> counts;  // side right, count wrong
  std::vector<std::string> sure;    // of those, read with a confidence of 0.8 or more
  std::vector<std::string> sides;   // no piece, a piece where none stands, or a piece of the other side
  std::vector<std::string> tokens;  // anything wrong
  std::vector<std::string> twice;   // tokens read on more than one site
};

// Learns from the start under `look` (unless `learn` is false: the defaults), then reads the scattered position
// under the same look. The 0s' sides count only when `zeros`.
Misreads learn_then_read(const Look& look, uint64_t seed, std::vector<std::string>* problems, bool zeros = true,
                         bool learn = true, PipelineParams params = {}) {
  params.debug = true;
  Pipeline p = make_pipeline("cotoan", params);
  const calib::BoardModel& model = p.model();
  const BoardContents start = cotoan_start_contents();
  Rendered first = render_with_look(model, look, start, seed);
  calib::BoardLocator locator(model);
  p.use_fit(locator.from_corners(first.corners), first.image.size());
  Misreads m;
  if (learn) {
    EXPECT_TRUE(read_still(p, first.image).read);
    std::vector<std::string> expected(model.sites.size());
    for (const auto& [site, layers] : start) expected[static_cast<size_t>(model.site_index(site))] = layers.back();
    m.learnt = p.learn(expected, problems);
    m.count_temperature = p.piece_set().count_temperature;
    m.count_blob_weight = p.piece_set().count_blob_weight;
  }
  Rendered second = render_with_look(model, look, scattered(start, seed + 1), seed + 1);
  const BoardObservation obs = read_still(p, second.image, 10000);
  EXPECT_TRUE(obs.read);
  for (size_t i = 0; i < model.sites.size(); ++i) {
    auto it = second.truth.find(model.sites[i].name);
    const std::string want = it == second.truth.end() ? "" : it->second, got = obs.sites[i].token;
    const std::string line = model.sites[i].name + ": read '" + got + "', is '" + want + "'";
    if (got != want) m.tokens.push_back(line);
    if (got.size() == 2 && want.size() == 2 && got[0] == want[0]) {
      const bool sure = obs.sites[i].conf >= 0.8f;
      if (got != want) {
        m.counts.push_back(line + " (" + std::to_string(obs.sites[i].conf) + ")");
        if (sure) m.sure.push_back(m.counts.back());
      }
    }
    if (!zeros && want.size() == 2 && want[1] == '0') continue;
    if (got.substr(0, 1) != want.substr(0, 1)) m.sides.push_back(line);
  }
  std::map<std::string, int> seen;
  for (const SiteReading& s : obs.sites)
    if (!s.token.empty() && ++seen[s.token] == 2) m.twice.push_back(s.token);
  if (!m.tokens.empty())
    cv::imwrite(::testing::TempDir() + "cotoan_sets_" + std::to_string(seed) + ".png", p.debug_image());
  return m;
}

// Both sides ivory (a shade apart, less than one piece's shade varies from the next), marks blue and purple in a
// ring of small dots, glossy plastic under two glare spots, a little defocus: the look of a tuning image
// (seed 5100001, image 41) whose start read R1, R2, R3 as B1, B2, B3 after learning, and whose set was then
// dropped for the defaults, which gave every red piece to blue. The marks' hue (SideModel::hue) tells the
// sides apart where the body colour and the mark pixels' own colour, blended with the body, do not: without it
// R1, R2 and R3 of the start and of the position below were given to the other side.
TEST(CotoanSets, TwoSetsOfOneBodyColourAreToldApartByTheHueOfTheirMarks) {
  // The tuning image's look as `smartboard dataset` wrote it (table and hands left to the defaults).
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#a2332e", "ink": "#141414", "land": "#b7c8a6", "light": "#ebd19c", "sheet": "#c8c5bc",
"water": "#6b90d5"}, "edge": "#bebbb2", "gloss": 0.048059680677753326, "markers": true, "material": "paper",
"texture": 0.7396749173203445, "thickness_mm": 0.14228256209991721}, "camera": {"aim_offset_mm": [-1.3488816746389054,
6.057935078843343], "azimuth_deg": 210.32326806570788, "hfov_deg": 69.27974772700364, "k1": 0.002030263367356039,
"k2": 0.022720267498929473, "px_per_pitch": 34.45662616546003, "roll_deg": 0.11016276760018236, "tilt_deg":
21.59331190941184}, "light": {"ambient": 0.37507809209097404, "azimuth_deg": 4.102681637456573, "directional":
0.7990556818628094, "elevation_deg": 47.06332795015956, "exposure": 0.8931490138211111, "glare_size_mm":
49.13004497960728, "glare_spots": 2, "glare_strength": 0.21449576025707268, "gradient": 0.045055550011076306,
"gradient_angle_deg": 159.18818364463132, "kelvin": 7005.919454281629, "shadow_softness_mm": 2.5815273532642844,
"vignette": 0.30151322030946537}, "pieces": {"diameter_pitch": 0.86, "dot_size": 0.14976082468619384, "dots": "ring",
"face": "dots", "gloss": 0.8830405364516518, "grooves": 2, "height_mm": 8.290066008769326, "material": "plastic",
"max_offset": 0.09660227265113062, "max_turn_deg": 180.0, "pattern_seed": 3121706637813288, "shade_jitter":
0.34662089176912125, "shape": "disc", "sides": {"B": {"body": "#edd9be", "mark": "#a90aad"}, "R": {"body": "#e1d4b7",
"mark": "#1371ab"}}, "symbols": "pictograms", "zero": "blank"}, "sensor": {"defocus_px": 1.0869923528130707,
"jpeg_quality": 93, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 3.9051062433494605}}
)"),
                                    "test look");
  std::vector<std::string> problems;
  // A blank 0 shows no mark: its side is its body's shade alone, and the two shades lie within one piece's
  // jitter of each other (the start's B0 may read R0, and so may the position's).
  const Misreads wrong = learn_then_read(look, 41, &problems, false);
  EXPECT_TRUE(wrong.learnt);
  EXPECT_LE(problems.size(), 1u) << "the start after learning, " << listed(problems);
  EXPECT_TRUE(wrong.sides.empty()) << listed(wrong.sides);
}

// The look of a tuning image (seed 5100001, image 40: green and red bodies with dice dots, defocus 1.5 px, 30 px
// per pitch), drawn here with seed 152: the learnt set reads three counts of the start wrong, every side and
// every empty site right. Such a set was dropped for the defaults (more than one piece in ten wrong), which count
// dots with no picture of this set's and read the next position worse. Now kept: a count misread is a lesser
// fault than a side. (Image 146's look served here until the start's blob counts backed its pictures by how
// right they are on the start: its start then reads right.)
TEST(CotoanSets, ASetThatMisreadsAFewCountsOfTheStartIsKeptOverTheDefaults) {
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#764e29", "ink": "#3b2a1a", "land": "#fff6cf", "light": "#fff6e2", "sheet": "#f1ede6",
"water": "#86a9c5"}, "edge": "#694837", "gloss": 0.5240143964237871, "markers": true, "material": "wood", "texture":
0.4371020813498797, "thickness_mm": 12.366000398260558}, "camera": {"aim_offset_mm": [-1.16283897967163,
3.7862259464051995], "azimuth_deg": 260.2472734065554, "hfov_deg": 67.08744946647505, "k1": -0.12945722025551318,
"k2": 0.034638331553440385, "px_per_pitch": 30.41792236048655, "roll_deg": 0.1468375779755369, "tilt_deg":
20.103234538278}, "light": {"ambient": 0.35570373076096423, "azimuth_deg": 188.95117449610106, "directional":
0.7024530942695971, "elevation_deg": 45.49094413970995, "exposure": 1.0890630474586678, "glare_size_mm":
31.171226074113655, "glare_spots": 2, "glare_strength": 0.41507222284914824, "gradient": 0.25032548060800053,
"gradient_angle_deg": 339.0780270906877, "kelvin": 5182.900198952726, "shadow_softness_mm": 4.52613139885581,
"vignette": 0.05193207360811075}, "pieces": {"diameter_pitch": 0.8264885317084588, "dot_size": 0.1548362134389512,
"dots": "dice", "face": "dots", "gloss": 0.6722586633704284, "grooves": 2, "height_mm": 9.541243597300232, "material":
"plastic", "max_offset": 0.14942421053863578, "max_turn_deg": 180.0, "pattern_seed": 38697130923786, "shade_jitter":
0.31398971554459415, "shape": "disc", "sides": {"B": {"body": "#45a08f", "mark": "#14110f"}, "R": {"body": "#bf1c1c",
"mark": "#f5f2eb"}}, "symbols": "letters", "zero": "star"}, "sensor": {"defocus_px": 1.4676477894738662,
"jpeg_quality": 91, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 1.7466291354860994}}
)"),
                                    "test look");
  std::vector<std::string> problems, none;
  const Misreads learnt = learn_then_read(look, 152, &problems);
  EXPECT_EQ(problems.size(), 3u) << "this look no longer shows what the test is about: " << listed(problems);
  EXPECT_TRUE(learnt.learnt);
  const Misreads defaults = learn_then_read(look, 152, &none, true, false);
  EXPECT_LT(learnt.tokens.size(), defaults.tokens.size())
      << "learnt: " << listed(learnt.tokens) << "\ndefaults: " << listed(defaults.tokens);
}

// The look of a tuning image (seed 5100002, image 143): dark olive wood pieces on tan card, whose top faces the
// paint model takes for the card in a neighbour's shadow (0.4 of its light, a chroma 0.06 off): their centres
// are not foreign, their rims faint, and the occupancy fitted on the start missed most of blue's pieces there
// and on every later board. The centre's likeness to the learnt body colours (SiteDetail::body) finds them.
TEST(CotoanSets, PiecesWhoseBodyThePaintModelExplainsAreFoundByTheirLearntColour) {
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#955d3b", "ink": "#141414", "land": "#b9be99", "light": "#ebd5af", "sheet": "#ccbea5",
"water": "#62a0ba"}, "edge": "#786554", "gloss": 0.06690766727945133, "markers": false, "material": "cardboard",
"texture": 0.8097005313313552, "thickness_mm": 2.458850360309815}, "camera": {"aim_offset_mm": [-6.5055555223037835,
0.5417980195051377], "azimuth_deg": 349.7293459574294, "hfov_deg": 59.99453054964291, "k1": 0.013494869508419272,
"k2": 0.024752640501813913, "px_per_pitch": 53.52183003687889, "roll_deg": -6.66985185131167, "tilt_deg":
30.92052634230261}, "light": {"ambient": 0.7615673863974999, "azimuth_deg": 69.50256807690128, "directional":
0.17117346774631595, "elevation_deg": 41.945119996548286, "exposure": 0.9838466990064667, "glare_size_mm":
41.11788612026194, "glare_spots": 0, "glare_strength": 0.5006041309389826, "gradient": 0.20762462159587158,
"gradient_angle_deg": 108.91837990950033, "kelvin": 5198.583927228276, "shadow_softness_mm": 2.964894415639732,
"vignette": 0.05143538439473444}, "pieces": {"diameter_pitch": 0.8524617554297024, "dot_size": 0.13672335201671465,
"dots": "dice", "face": "dots", "gloss": 0.10881184571956594, "grooves": 2, "height_mm": 9.40888623189346, "material":
"wood", "max_offset": 0.025902617065886348, "max_turn_deg": 180.0, "pattern_seed": 3768606651333676, "shade_jitter":
0.358011379830588, "shape": "disc", "sides": {"B": {"body": "#666841", "mark": "#ebe8e0"}, "R": {"body": "#53838b",
"mark": "#fffcf4"}}, "symbols": "letters", "zero": "ring"}, "sensor": {"defocus_px": 0.0, "jpeg_quality": 0,
"motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 4.312533915785984}}
)"),
                                    "test look");
  std::vector<std::string> problems;
  const Misreads wrong = learn_then_read(look, 143, &problems);
  EXPECT_TRUE(wrong.learnt);
  EXPECT_LE(problems.size(), 1u) << "the start after learning, " << listed(problems);
  EXPECT_TRUE(wrong.sides.empty()) << listed(wrong.sides);
}

// The look of a tuning image (seed 5100001, image 62): motion blur of 5.5 px across dots scattered on small faces,
// 28 px per pitch, JPEG 43. Blurred dots merge and counts are misread, by and large with a confidence of 0.8 and
// more (e10: B0 read B7 at 0.92 there; here 14 of 20 counts wrong, 4 of them at 0.8 or more without it). The start read
// with the other side's pictures alone shows how unsure this look's counts are (PieceSet::count_temperature):
// the misread counts are then doubted.
TEST(CotoanSets, CountsOfABlurredLookAreReadWithAnHonestConfidence) {
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#506498", "ink": "#141414", "land": "#d2d0a9", "light": "#eef2f9", "sheet": "#aa7a5c",
"water": "#659cd9"}, "edge": "#7d613d", "gloss": 0.36203955669272525, "markers": true, "material": "wood", "texture":
0.7621841618917427, "thickness_mm": 17.47341317590842}, "camera": {"aim_offset_mm": [0.02016276062495465,
-0.5488139923495499], "azimuth_deg": 161.19937402186014, "hfov_deg": 66.85316502441484, "k1": -0.034240293641639774,
"k2": 0.010131344986753589, "px_per_pitch": 27.7785368171333, "roll_deg": -2.9912400344737486, "tilt_deg":
38.625666975192956}, "light": {"ambient": 0.7013135814837486, "azimuth_deg": 33.45363474125109, "directional":
0.249411818059753, "elevation_deg": 66.61565193733139, "exposure": 1.0915544182768993, "glare_size_mm":
22.05743249570919, "glare_spots": 1, "glare_strength": 0.6432373506822953, "gradient": 0.1708066304112375,
"gradient_angle_deg": 339.73703185069525, "kelvin": 5221.0407499181565, "shadow_softness_mm": 3.073559605310921,
"vignette": 0.37844589543286805}, "pieces": {"diameter_pitch": 0.8487956025871574, "dot_size": 0.10525114382747283,
"dots": "scattered", "face": "dots", "gloss": 0.708777030883012, "grooves": 2, "height_mm": 6.462826453939708,
"material": "plastic", "max_offset": 0.1719831916570539, "max_turn_deg": 180.0, "pattern_seed": 729410615046242,
"shade_jitter": 0.11814934011809125, "shape": "disc", "sides": {"B": {"body": "#84c7cf", "mark": "#13110f"}, "R":
{"body": "#5b512f", "mark": "#f0ede7"}}, "symbols": "pictograms", "zero": "star"}, "sensor": {"defocus_px": 0.0,
"jpeg_quality": 43, "motion_angle_deg": 79.5352870466895, "motion_px": 5.500394678829397, "noise": 4.101601727717853}}
)"),
                                    "test look");
  std::vector<std::string> problems;
  const Misreads m = learn_then_read(look, 62, &problems);
  EXPECT_TRUE(m.learnt);
  EXPECT_GT(m.count_temperature, kCountTemperature);
  ASSERT_GE(m.counts.size(), 2u) << "this look no longer misreads counts: the test shows nothing";
  EXPECT_LE(m.sure.size(), m.counts.size() / 4) << "misread counts held sure: " << listed(m.sure);
}

// The look of a tuning image (seed 5100001, image 110): motion blur of 7.1 px across rings of dots on small faces
// (30 px per pitch). The blurred dots of neighbouring counts merge into like rings, and the faces' outlines,
// smeared too, are found a pixel or two off their centres: pictured about the face's centre, 20 of these 60
// counts (three positions) were misread, a count matching the next one's picture as well as its own. Pictured
// about the marks' centre of mass (which blur leaves in place), as the start's pictures are, 13 are.
TEST(CotoanSets, MotionBlurredRingsOfDotsAreMiscountedLessWhenPicturedAboutTheirMarksCentre) {
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#7c5233", "ink": "#3b2a1a", "land": "#e7dbbb", "light": "#e7e0ce", "sheet": "#f6f3eb",
"water": "#a2d0ef"}, "edge": "#806e5c", "gloss": 0.020607196295813247, "markers": true, "material": "cardboard",
"texture": 0.45653295829267077, "thickness_mm": 1.6975519869341404}, "camera": {"aim_offset_mm": [-2.453282437295619,
-14.539559767333664], "azimuth_deg": 292.22103065880884, "hfov_deg": 70.85848045558326, "k1": -0.033571263703707305,
"k2": 0.03541039506175031, "px_per_pitch": 29.643571743200084, "roll_deg": -7.929063874976331, "tilt_deg":
3.116211722240335}, "light": {"ambient": 0.506372864428426, "azimuth_deg": 145.9469544550832, "directional":
0.4110879233461718, "elevation_deg": 59.47840549392251, "exposure": 1.169470279546638, "glare_size_mm":
58.120662518309835, "glare_spots": 0, "glare_strength": 0.5980524147263659, "gradient": 0.011127706613272404,
"gradient_angle_deg": 222.62824195479953, "kelvin": 6921.984201219592, "shadow_softness_mm": 3.6935619089220166,
"vignette": 0.21730834959131085}, "pieces": {"diameter_pitch": 0.8432638526976838, "dot_size": 0.12682262580700088,
"dots": "ring", "face": "dots", "gloss": 0.6948741181100629, "grooves": 2, "height_mm": 5.9305539030094865,
"material": "plastic", "max_offset": 0.13845907408867653, "max_turn_deg": 180.0, "pattern_seed": 3789096746683123,
"shade_jitter": 0.3060001580404821, "shape": "disc", "sides": {"B": {"body": "#52818d", "mark": "#f3f1e9"}, "R":
{"body": "#39245b", "mark": "#f2efe8"}}, "symbols": "pictograms", "zero": "cross"}, "sensor": {"defocus_px": 0.0,
"jpeg_quality": 0, "motion_angle_deg": 6.8378161756325255, "motion_px": 7.100421541081256, "noise":
2.4862754708899395}}
)"),
                                    "test look");
  std::vector<std::string> counts;
  for (uint64_t seed : {110, 112, 114}) {
    std::vector<std::string> problems;
    const Misreads m = learn_then_read(look, seed, &problems);
    EXPECT_TRUE(m.learnt) << "seed " << seed << ": " << listed(problems);
    counts.insert(counts.end(), m.counts.begin(), m.counts.end());
  }
  EXPECT_LE(counts.size(), 15u) << "counts misread of 60: " << listed(counts);
}

// The look of a tuning image (seed 5100001, image 114): sharp dice dots (no defocus, no motion blur) on blue and
// red plastic, JPEG 54, and a blank 0. A blank face's picture is its noise, which matched four dice dots about
// as well as anything (B0 and R0 of that image read as 4), and a 7's picture can match a 4's. Every start face's
// dot-like blobs are counted right under this look, so the set learns to let them back the pictures more (0.15
// against the default 0.08): without it one of these 80 counts was misread (d6: R7 read as R4).
TEST(CotoanSets, SharpDotsCountedRightOnTheStartBackTheirCountMore) {
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#202020", "ink": "#1f294d", "land": "#c3e0a8", "light": "#fcfcf7", "sheet": "#cfaf7d",
"water": "#7da8c0"}, "edge": "#a57a4b", "gloss": 0.29891998333154784, "markers": true, "material": "wood", "texture":
0.672503150029715, "thickness_mm": 10.499758746483867}, "camera": {"aim_offset_mm": [-1.5317959292720997,
1.0742605764427864], "azimuth_deg": 20.254842944913626, "hfov_deg": 63.551928534226796, "k1": 0.0, "k2": 0.0,
"px_per_pitch": 37.287357734543725, "roll_deg": 2.7448765485897098, "tilt_deg": 28.342144780993536}, "light":
{"ambient": 0.5236071561030016, "azimuth_deg": 169.79784414754397, "directional": 0.4384454910779968,
"elevation_deg": 49.34933613666644, "exposure": 0.9661328773986039, "glare_size_mm": 45.07719735797487,
"glare_spots": 0, "glare_strength": 0.6950333402277986, "gradient": 0.027397907155237225, "gradient_angle_deg":
278.3209664819929, "kelvin": 3627.006353365868, "shadow_softness_mm": 4.97037526727199, "vignette":
0.4798592291611163}, "pieces": {"diameter_pitch": 0.7608199824462278, "dot_size": 0.13519948536305346, "dots": "dice",
"face": "dots", "gloss": 0.6914091354241725, "grooves": 2, "height_mm": 9.872623473931295, "material": "plastic",
"max_offset": 0.0880826673787573, "max_turn_deg": 180.0, "pattern_seed": 2749011613887464, "shade_jitter":
0.23275177151986887, "shape": "disc", "sides": {"B": {"body": "#2460ad", "mark": "#f0ebd8"}, "R": {"body": "#d14f38",
"mark": "#fff7e4"}}, "symbols": "pictograms", "zero": "blank"}, "sensor": {"defocus_px": 0.0, "jpeg_quality": 54,
"motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 4.8695065499107075}}
)"),
                                    "test look");
  std::vector<std::string> counts;
  float weight = 0;
  for (uint64_t seed : {114, 116, 118, 120}) {
    std::vector<std::string> problems;
    const Misreads m = learn_then_read(look, seed, &problems);
    EXPECT_TRUE(m.learnt) << "seed " << seed << ": " << listed(problems);
    weight = m.count_blob_weight;
    counts.insert(counts.end(), m.counts.begin(), m.counts.end());
  }
  EXPECT_GT(weight, kCountBlobWeight);
  EXPECT_TRUE(counts.empty()) << "counts misread of 80: " << listed(counts);
}

// The look of a tuning image (seed 5100001, image 49): rings of ivory dots on blue and red plastic, defocus
// 1.65 px, 30 px per pitch, JPEG 40. The blurred rings of neighbouring counts match each other's pictures
// nearly as well as their own, and a side was read with two 8s, or two 9s, though it owns one piece of each
// count. Each side's faces now take their counts from the surest match down, each count once: without it these
// three positions showed 10 tokens twice and 17 of 60 counts misread; with it none twice and 13 misread (two
// swapped counts stay wrong: the constraint only settles which face takes a count both claim). Since counts are
// matched from pictures about points round the face's centre too (count_pictures; its start reads as many faces
// right so), 17 are: these nearly round rings can match a wrong count better from a centre moved off theirs, while
// the dataset image of this look went from 8 misread to 6 of 20, and the tuning sets from 109 to 72 of 4,268.
TEST(CotoanSets, NoSideIsReadWithTwoPiecesOfOneCount) {
  const Look look = Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#2b7239", "ink": "#141414", "land": "#cfddad", "light": "#e3dab4", "sheet": "#cac79e",
"water": "#6e8ff6"}, "edge": "#b7a48c", "gloss": 0.0922363743249994, "markers": true, "material": "cardboard",
"texture": 0.8976109609000962, "thickness_mm": 3.119790656315235}, "camera": {"aim_offset_mm": [1.5321384636839777,
3.9834829011880544], "azimuth_deg": 298.41997170941727, "hfov_deg": 58.71386556139939, "k1": 0.0, "k2": 0.0,
"px_per_pitch": 30.47581195513787, "roll_deg": 5.442645611575963, "tilt_deg": 40.99688524452187}, "light": {"ambient":
0.7493968739320505, "azimuth_deg": 207.9756101967355, "directional": 0.24460176211264142, "elevation_deg":
78.53054471748484, "exposure": 1.0028776570785682, "glare_size_mm": 38.8203404106665, "glare_spots": 0,
"glare_strength": 0.2977894751800151, "gradient": 0.2576128021242433, "gradient_angle_deg": 184.93552160834642,
"kelvin": 5843.879753931341, "shadow_softness_mm": 4.395013421042468, "vignette": 0.46686336264967254}, "pieces":
{"diameter_pitch": 0.86, "dot_size": 0.12768252638036187, "dots": "ring", "face": "dots", "gloss": 0.6944881753973947,
"grooves": 2, "height_mm": 9.032935922567027, "material": "plastic", "max_offset": 0.09388231964404432,
"max_turn_deg": 180.0, "pattern_seed": 3509926023045218, "shade_jitter": 0.3779493972582855, "shape": "disc", "sides":
{"B": {"body": "#2a60a5", "mark": "#fff9e5"}, "R": {"body": "#be3a26", "mark": "#fef7e3"}}, "symbols": "pictograms",
"zero": "cross"}, "sensor": {"defocus_px": 1.653445331132665, "jpeg_quality": 40, "motion_angle_deg": 0.0,
"motion_px": 0.0, "noise": 0.8873084855465201}}
)"),
                                    "test look");
  std::vector<std::string> counts, twice;
  for (uint64_t seed : {49, 51, 53}) {
    std::vector<std::string> problems;
    const Misreads m = learn_then_read(look, seed, &problems);
    EXPECT_TRUE(m.learnt) << "seed " << seed << ": " << listed(problems);
    counts.insert(counts.end(), m.counts.begin(), m.counts.end());
    twice.insert(twice.end(), m.twice.begin(), m.twice.end());
  }
  EXPECT_TRUE(twice.empty()) << "counts read twice on one side: " << listed(twice);
  EXPECT_LE(counts.size(), 17u) << "counts misread of 60: " << listed(counts);
}

// One side's ten faces as the reader scored them on a tuning image (seed 5150001, image 78: scattered dots under
// a defocus of 1.6 px, the look's learnt count temperature 0.098): the 8 at a10 matched the 9's picture a shade
// better than the 8's (0.928, 0.900), the 9 at d3 the 9's far better than the 8's (0.737, 0.577). Taking the
// surest match first gave a10 the 9 and d3 the 8, both wrong; the assignment under which the most faces are
// expected right gives each its own.
TEST(CotoanSets, ACountGoesToTheFaceFarSurerOfItThanToTheFaceThatMatchedItBest) {
  using Scores = std::vector<std::pair<char, float>>;
  const std::vector<std::pair<std::string, Scores>> faces = {
      {"7",
       {{'7', 0.951f},
        {'8', 0.804f},
        {'9', 0.759f},
        {'6', 0.721f},
        {'5', 0.547f},
        {'3', 0.378f},
        {'2', 0.341f},
        {'4', 0.273f},
        {'0', 0.014f},
        {'1', -0.046f}}},
      {"4",
       {{'4', 0.958f},
        {'2', 0.617f},
        {'3', 0.496f},
        {'6', 0.488f},
        {'5', 0.402f},
        {'7', 0.325f},
        {'9', 0.297f},
        {'8', 0.290f},
        {'1', 0.101f},
        {'0', -0.248f}}},
      {"1",
       {{'1', 0.831f},
        {'6', 0.489f},
        {'2', 0.145f},
        {'3', 0.047f},
        {'4', 0.034f},
        {'7', -0.035f},
        {'8', -0.045f},
        {'9', -0.088f},
        {'0', -0.097f},
        {'5', -0.142f}}},
      {"8",
       {{'9', 0.928f},
        {'8', 0.900f},
        {'7', 0.823f},
        {'6', 0.739f},
        {'5', 0.614f},
        {'2', 0.349f},
        {'3', 0.298f},
        {'4', 0.270f},
        {'0', 0.086f},
        {'1', -0.012f}}},
      {"0",
       {{'0', 0.936f},
        {'9', 0.080f},
        {'8', 0.060f},
        {'7', -0.020f},
        {'5', -0.053f},
        {'1', -0.061f},
        {'6', -0.105f},
        {'2', -0.195f},
        {'4', -0.215f},
        {'3', -0.216f}}},
      {"2",
       {{'2', 1.014f},
        {'4', 0.584f},
        {'3', 0.498f},
        {'6', 0.465f},
        {'8', 0.402f},
        {'9', 0.344f},
        {'7', 0.333f},
        {'5', 0.307f},
        {'1', 0.179f},
        {'0', -0.227f}}},
      {"3",
       {{'3', 1.020f},
        {'4', 0.433f},
        {'2', 0.390f},
        {'7', 0.372f},
        {'6', 0.358f},
        {'5', 0.255f},
        {'8', 0.252f},
        {'9', 0.251f},
        {'1', 0.059f},
        {'0', -0.252f}}},
      {"6",
       {{'7', 0.579f},
        {'5', 0.532f},
        {'6', 0.505f},
        {'8', 0.462f},
        {'9', 0.439f},
        {'3', 0.331f},
        {'2', 0.300f},
        {'4', 0.227f},
        {'0', -0.029f},
        {'1', -0.145f}}},
      {"5",
       {{'5', 0.844f},
        {'6', 0.725f},
        {'8', 0.715f},
        {'7', 0.711f},
        {'9', 0.688f},
        {'4', 0.523f},
        {'2', 0.467f},
        {'3', 0.451f},
        {'1', 0.164f},
        {'0', -0.160f}}},
      {"9",
       {{'9', 0.737f},
        {'8', 0.577f},
        {'7', 0.527f},
        {'6', 0.472f},
        {'5', 0.431f},
        {'2', 0.378f},
        {'3', 0.299f},
        {'4', 0.258f},
        {'0', 0.072f},
        {'1', -0.037f}}},
  };
  std::vector<Scores> scores;
  for (const auto& f : faces) scores.push_back(f.second);
  const PieceVocabulary vocab = vocabulary_for("cotoan");
  const std::vector<char> counts = assign_counts(scores, vocab.kinds, vocab.most_per_side, 0.098f);
  ASSERT_EQ(counts.size(), faces.size());
  std::vector<std::string> wrong;
  for (size_t i = 0; i < faces.size(); ++i)
    if (std::string(1, counts[i]) != faces[i].first)
      wrong.push_back(faces[i].first + " read " + std::string(1, counts[i]));
  EXPECT_TRUE(wrong.empty()) << listed(wrong);
  // More faces than the side owns pieces (a side misread): none assigned, the caller keeps each face's best.
  scores.push_back(scores.front());
  EXPECT_EQ(assign_counts(scores, vocab.kinds, vocab.most_per_side, 0.098f), std::vector<char>(scores.size(), 0));
}

// The look of a tuning image (seed 5100002, image 28): dice dots on blue and red plastic, defocus 1.67 px at 27 px
// per pitch. The blurred outline puts a face's centre a pixel or so off, the dots' centre of mass wanders as far,
// and a dice picture taken about a centre that far off matches a neighbouring count's better than its own (that
// image: 5 counts misread; a blurred star 0 and a single dot are taken for each other). Each count's match is now
// the best of the face's pictures about its centre and the points round it (count_pictures): of these three
// positions' 60 counts, 16 were misread with the picture about the centre alone, 4 are.
Look blurred_dice_look() {
  return Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#7b4f2e", "ink": "#3b2a1a", "land": "#ffefd0", "light": "#e7e0ce", "sheet": "#cda476",
"water": "#9ecce6"}, "edge": "#6e4a28", "gloss": 0.7910486195269235, "markers": false, "material": "wood", "texture":
0.27901402253407454, "thickness_mm": 11.856555848028702}, "camera": {"aim_offset_mm": [7.02436749655744,
-0.3828265063032922], "azimuth_deg": 101.31863654952794, "hfov_deg": 60.48867151625376, "k1": 0.032521563895472255,
"k2": -0.01366883085249056, "px_per_pitch": 26.697177434488413, "roll_deg": 7.153828030271529, "tilt_deg":
16.63107209169482}, "light": {"ambient": 0.4112882757989092, "azimuth_deg": 324.02283050978707, "directional":
0.5895156086981999, "elevation_deg": 40.3249165868116, "exposure": 0.8135900606795015, "glare_size_mm":
40.10643770567466, "glare_spots": 0, "glare_strength": 0.3911829645552966, "gradient": 0.23482155759683773,
"gradient_angle_deg": 306.95153399980137, "kelvin": 6648.445011314496, "shadow_softness_mm": 1.2510913159610215,
"vignette": 0.49550421837873226}, "pieces": {"diameter_pitch": 0.8111198023379433, "dot_size": 0.18266667493138006,
"dots": "dice", "face": "dots", "gloss": 0.4430867064503139, "grooves": 2, "height_mm": 5.903674992779667, "material":
"plastic", "max_offset": 0.05538109454757781, "max_turn_deg": 180.0, "pattern_seed": 3069828083624252, "shade_jitter":
0.41428729255155194, "shape": "disc", "sides": {"B": {"body": "#286198", "mark": "#fdf6e2"}, "R": {"body": "#b04630",
"mark": "#eee7d4"}}, "symbols": "pictograms", "zero": "star"}, "sensor": {"defocus_px": 1.6665727480761494,
"jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 1.0412653937407095}}
)"),
                         "test look");
}

// The counts misread on the blurred dice look's three positions (seeds 28, 30, 32), read with `params`.
std::vector<std::string> blurred_dice_counts_misread(const PipelineParams& params = {}) {
  std::vector<std::string> counts;
  for (uint64_t seed : {28, 30, 32}) {
    std::vector<std::string> problems;
    const Misreads m = learn_then_read(blurred_dice_look(), seed, &problems, true, true, params);
    EXPECT_TRUE(m.learnt) << "seed " << seed << ": " << listed(problems);
    counts.insert(counts.end(), m.counts.begin(), m.counts.end());
  }
  return counts;
}

TEST(CotoanSets, BlurredDiceAreCountedByTheirPicturesAboutCentresRoundTheOneFound) {
  const std::vector<std::string> counts = blurred_dice_counts_misread();
  EXPECT_LE(counts.size(), 8u) << "counts misread of 60: " << listed(counts);
}

// The search round the centre is skipped for a face whose picture about its centre alone puts its best count
// plainly ahead (ReaderParams::count_search_skip_temperatures): the blurred dice, whose pictures about the centre leave
// neighbouring counts close, are still searched and read as above; a rule that skips the search whenever the best
// count is ahead at all reads them as the centre's picture alone does.
TEST(CotoanSets, BlurredDiceWhoseCountsAreCloseAboutTheCentreAreStillSearched) {
  PipelineParams eager;
  eager.reader.count_search_skip_temperatures = 1e-6f;
  eager.reader.search_skip_score = -2.f;
  const std::vector<std::string> skipped = blurred_dice_counts_misread(eager), read = blurred_dice_counts_misread();
  EXPECT_GE(skipped.size(), 12u) << "the scenes no longer show the fault: " << listed(skipped);
  EXPECT_LE(read.size(), 8u) << "counts misread of 60: " << listed(read);
}

// The look of a tuning image (seed 9400051, image 13: red and blue dice under a camera streaked 7 px at 173°,
// JPEG 62), drawn here with seed 13: the streak merges dots into bars, and the start's pictures and the read
// faces, each turned its own way, are smeared across different turns. With the streak found and taken out before
// faces are cut (PipelineParams::undo_motion_streak), half as many counts are misread (4 -> 2 when written).
Look dice_under_a_motion_streak() {
  return Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#785031", "ink": "#3b2a1a", "land": "#eee5c3", "light": "#fff6df", "sheet":
"#fcf8f0", "water": "#8fb8d8"}, "edge": "#a47057", "gloss": 0.44560404742638393, "markers": true, "material":
"wood", "texture": 0.23850379589575949, "thickness_mm": 8.877648521981737}, "camera": {"aim_offset_mm":
[-4.731170123678178, 6.1186112749942065], "azimuth_deg": 56.370253786593565, "hfov_deg": 60.616582975113154, "k1":
0.0, "k2": 0.0, "px_per_pitch": 27.41480637099613, "roll_deg": 3.0578522981000904, "tilt_deg": 26.210565496876274},
"light": {"ambient": 0.8152892503658189, "azimuth_deg": 153.4702068173543, "directional": 0.1601838517450486,
"elevation_deg": 75.50318763961705, "exposure": 0.879515425690184, "glare_size_mm": 20.96979706169961,
"glare_spots": 1, "glare_strength": 0.5103786592281635, "gradient": 0.07425624557728554, "gradient_angle_deg":
216.72104117438266, "kelvin": 4766.355945368587, "shadow_softness_mm": 4.994793335880862, "vignette":
0.31884153572234847}, "pieces": {"diameter_pitch": 0.86, "dot_size": 0.1592434254506077, "dots": "dice", "face":
"dots", "gloss": 0.707694217688922, "grooves": 2, "height_mm": 9.336136246838416, "material": "plastic",
"max_offset": 0.026878447275909313, "max_turn_deg": 180.0, "pattern_seed": 186179555764035, "shade_jitter":
0.3266948692243068, "shape": "disc", "sides": {"B": {"body": "#245aa5", "mark": "#fef4e2"}, "R": {"body":
"#cc3f20", "mark": "#f5eede"}}, "symbols": "pictograms", "zero": "blank"}, "sensor": {"defocus_px": 0.0,
"jpeg_quality": 62, "motion_angle_deg": 172.70576218921528, "motion_px": 6.977491003312657, "noise":
2.479826901027316}}
)"),
                         "test look");
}

TEST(CotoanSets, DiceUnderAMotionStreakAreMiscountedHalfAsOftenOnceTheStreakIsUndone) {
  const Look look = dice_under_a_motion_streak();
  PipelineParams off, on;
  off.undo_motion_streak = false;
  on.undo_motion_streak = true;
  std::vector<std::string> problems_off, problems_on;
  const Misreads streaked = learn_then_read(look, 13, &problems_off, true, true, off);
  const Misreads undone = learn_then_read(look, 13, &problems_on, true, true, on);
  EXPECT_TRUE(undone.learnt);
  EXPECT_LE(2 * undone.counts.size(), streaked.counts.size())
      << "undone: " << listed(undone.counts) << "\nstreaked: " << listed(streaked.counts);
  EXPECT_LE(undone.sides.size(), streaked.sides.size()) << listed(undone.sides);
}

// The streak is taken out for faces only: plain men are read by their rim and colours, which the filter's ringing
// disturbs more than the streak (brazilian unseen 9703101 image 18, morris12 9707101 images 8 and 21: a man missed
// or seen on an empty point once the streak was undone, each read right from the streaked picture). The same
// streaked camera over a Brazilian start is read as it was seen, and over a Cờ toán board the streak is found.
TEST(CotoanSets, OnlyASetWithFacesHasTheMotionStreakTakenOut) {
  const Look look = dice_under_a_motion_streak();
  Pipeline dice = make_pipeline("cotoan");
  Pipeline men = make_pipeline("brazilian");
  EXPECT_TRUE(dice.undoes_streaks());
  EXPECT_FALSE(men.undoes_streaks());
  const Rendered cotoan = render_with_look(dice.model(), look, cotoan_start_contents(), 13);
  dice.use_fit(calib::BoardLocator(dice.model()).from_corners(cotoan.corners), cotoan.image.size());
  ASSERT_TRUE(read_still(dice, cotoan.image).read);
  EXPECT_TRUE(dice.last_streak().found());
  EXPECT_NEAR(dice.last_streak().length_px, 7.0, 1.5);
  Look plain = look;  // the red men stand for the white side
  for (SideColours& c : plain.pieces.sides)
    if (c.side == 'R') c.side = 'W';
  const Rendered draughts =
      render_with_look(men.model(), plain, testing::contents_of(testing::draughts_start_tokens(12, 32)), 13);
  men.use_fit(calib::BoardLocator(men.model()).from_corners(draughts.corners), draughts.image.size());
  ASSERT_TRUE(read_still(men, draughts.image).read);
  EXPECT_FALSE(men.last_streak().found()) << "the streak was looked for on a set of plain men";
}

// Sharp dots scattered over wooden pieces under an even light, no streak (the look of Cờ toán 9400032 image 982).
Look sharp_scattered_dots() {
  return Look::from_json(nlohmann::json::parse(R"(
{"board": {"colours": {"dark": "#764b2e", "ink": "#3b2a1a", "land": "#eee0c1", "light": "#f2e9d3", "sheet":
"#f7f4eb", "water": "#9cc1de"}, "edge": "#654331", "gloss": 0.7380106709340024, "markers": false, "material":
"wood", "texture": 0.28958805139810206, "thickness_mm": 17.005644135058418}, "camera": {"aim_offset_mm":
[15.91924932741443, -3.247305246998496], "azimuth_deg": 103.9928991482966, "hfov_deg": 61.359057187549126, "k1":
-0.11028470542740369, "k2": 0.012335026684009365, "px_per_pitch": 35.385689212164436, "roll_deg":
9.229972648110383, "tilt_deg": 33.46602312004115}, "hands": {"size": 1.0138083978717098, "skin": ["#b08972",
"#6f4d3d"], "sleeve": ["#586e2c", "#515851"], "sleeve_length": [0.0, 0.0]}, "light": {"ambient":
0.39295168009978526, "azimuth_deg": 294.42055310900923, "directional": 0.6374790562365731, "elevation_deg":
59.93135374702328, "exposure": 1.0769196366831386, "glare_size_mm": 26.51972750273044, "glare_spots": 0,
"glare_strength": 0.7498330199717582, "gradient": 0.19584976072848714, "gradient_angle_deg": 174.76831980789802,
"kelvin": 5025.935200240083, "shadow_softness_mm": 1.1484336464905671, "vignette": 0.2243483037087433},
"pieces": {"diameter_pitch": 0.822383278535917, "dot_size": 0.09520318933298112, "dots": "scattered", "face":
"dots", "gloss": 0.28868873475789375, "grooves": 2, "height_mm": 7.792132963839378, "material": "wood",
"max_offset": 0.17053343709036814, "max_turn_deg": 180.0, "pattern_seed": 2478126906402038, "shade_jitter":
0.4363001871802076, "shape": "disc", "sides": {"B": {"body": "#175ca9", "mark": "#fff8e4"}, "R": {"body":
"#c64936", "mark": "#fff8e5"}}, "symbols": "letters", "zero": "blank"}, "sensor": {"defocus_px": 0.0,
"jpeg_quality": 0, "motion_angle_deg": 0.0, "motion_px": 0.0, "noise": 5.173712267605666}, "table": {"accent":
"#878c67", "angle_deg": 125.1031325419083, "base": "#959b72", "scale_mm": 1.8476249378935585, "surface":
"cloth"}}
)"),
                         "test look");
}

// The start's rows of like pieces put a notch in the spectrum where no streak is (a "6.5 px streak" at 10° on most
// seeds of this look). Undone, it rang every face of the sharp start, and the set learnt from that misread 14 of
// the 20 counts of a sharp position (Cờ toán 9400032 image 982). The pictures learnt from the frame as seen hold
// up better (each side's faces read right by the other side's pictures), and the set is learnt from it.
TEST(CotoanSets, AStartTakenForStreakedIsLearntFromTheFrameAsSeenWhenItsPicturesHoldUpBetter) {
  const Look look = sharp_scattered_dots();
  const uint64_t seed = 2;
  Pipeline seen = make_pipeline("cotoan");
  const Rendered first = render_with_look(seen.model(), look, cotoan_start_contents(), seed);
  seen.use_fit(calib::BoardLocator(seen.model()).from_corners(first.corners), first.image.size());
  ASSERT_TRUE(read_still(seen, first.image).read);
  ASSERT_TRUE(seen.last_streak().found()) << "the start is no longer taken for streaked: the test shows nothing";
  std::vector<std::string> problems;
  const Misreads m = learn_then_read(look, seed, &problems);
  EXPECT_TRUE(m.learnt) << listed(problems);
  EXPECT_LE(m.counts.size(), 1u) << listed(m.counts);
  EXPECT_TRUE(m.sides.empty()) << listed(m.sides);
}

}  // namespace
}  // namespace sb::vision
