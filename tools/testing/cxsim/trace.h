#include "trace/trace-hw_net_cxsim.h"
