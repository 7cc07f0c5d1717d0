import SoukGRPC
