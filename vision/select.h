// The middle value of many floats, as std::nth_element finds it, in fewer passes over them: the paint fit takes
// per role and channel the median of tens of thousands of pixels on every read.
#pragma once

#include <vector>

namespace sb::vision {

// The value of rank values.size() / 2 (0 for none): the value std::nth_element puts at that index. `values` is
// left in an unspecified order.
float middle_value(std::vector<float>& values);

}  // namespace sb::vision
