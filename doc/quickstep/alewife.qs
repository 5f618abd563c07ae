; alewife.qs - QuickStep's statistics for the simulated Alewife
; (dsmrun --machine=alewife --quickstep=doc/quickstep/alewife.qs[:NAMES]).
; The language is QuickStep's (section 3.2.4, Figs. 3.4-3.6); ';' starts a
; comment.  The mask layout is in protocol/sim/quickstep.h: the cache
; statistics' masks are those of Fig. 3.6; the others follow the same
; pattern (major function in the top 4 bits).

; ---- cache statistics (major 2) --------------------------------------
Name "Cache_Statistics.Data_Cache_Hit_Ratio"
CounterMasks #x201EFF20 #x201EFF3F
CounterOperation Value 0 Value 1 DivMul 100 0 1
HeaderStrings "#ofCachedDataAcc" "#ofDataAcc" "DCache-HR"
TimeFlag 1
Help "Offers 3 figures: Number of Cached Data Accesses,
      Number of Total Data Accesses, and Data Cache Hit Ratio"
EndRecord

Name "Cache_Statistics.Cached_Read_Ratio"
CounterMasks #x2002FF20 #x2002FF3F
CounterOperation Value 0 Value 1 DivMul 100 0 1
HeaderStrings "#ofCachedReads" "#ofReads" "Cached-Read-Ratio"
TimeFlag 1
Help "Cached reads, all reads and their ratio (bench1, Table 4.1)"
EndRecord

Name "Cache_Statistics.Cached_Local_Local_Data_Accesses"
CounterMasks #x201EF320 #x201EF33F
CounterOperation Value 0 Value 1 DivMul 100 0 1
HeaderStrings "Cached Local-Local-Data Accesses"
    "Total Local-Local-Data Accesses"
    "Cached-Local-Local-Data"
TimeFlag 1
Help "Offers 3 figures: Cached Local-Local-Data Accesses,
      Total Local-Local-Data Accesses, and Cached Local-Local-Data Ratio"
EndRecord

Name "Cache_Statistics.Cached_Local_Global_Data_Accesses"
CounterMasks #x201EF520 #x201EF53F
CounterOperation Value 0 Value 1 DivMul 100 0 1
HeaderStrings "Cached Local-Global-Data Accesses"
    "Total Local-Global-Data Accesses"
    "Cached-Local-Global-Data"
TimeFlag 1
Help "Offers 3 figures: Cached Local-Global-Data Accesses,
      Total Local-Global-Data Accesses, and Cached Local-Global-Data Ratio"
EndRecord

Name "Cache_Statistics.Cached_Remote_Global_Data_Accesses"
CounterMasks #x201EF920 #x201EF93F
CounterOperation Value 0 Value 1 DivMul 100 0 1
HeaderStrings "Cached Remote-Global-Data Accesses"
    "Total Remote-Global-Data Accesses"
    "Cached-Remote-Global-Data"
TimeFlag 1
Help "Offers 3 figures: Cached Remote-Global-Data Accesses,
      Total Remote-Global-Data Accesses, and Cached Remote-Global-Data Ratio
      (bench5: the remote accesses; bench11: per timeslice)"
EndRecord

GroupNames "Cache_Statistics"
StatisticsNames "Cache_Statistics.Data_Cache_Hit_Ratio"
    "Cache_Statistics.Cached_Local_Local_Data_Accesses"
    "Cache_Statistics.Cached_Local_Global_Data_Accesses"
    "Cache_Statistics.Cached_Remote_Global_Data_Accesses"
EndRecord

; ---- data distribution (Fig. 5.7, Table 5.2) ---------------------------
Name "Cache_Statistics.Data_Distribution"
CounterMasks #x201EF33F #x201EF53F #x201EF93F
CounterOperation Value 0 Value 1 Value 2 Sum 0 1 2
HeaderStrings "Local-Local" "Local-Global" "Remote-Global" "All"
TimeFlag 1
Help "Data accesses by where the data lives"
EndRecord

; ---- network statistics (major 9) --------------------------------------
Name "Network.Packet_Headers_Output"
CounterMasks #x90010FFF
CounterOperation Value 0
HeaderStrings "Packet headers through the output queue"
TimeFlag 1
Help "Every packet a node sends (Figs. 2.4, 5.8-5.10)"
EndRecord

Name "Network.RREQ_Distances"
HistogramMask #x90010001
HistogramHeaderStrings "Hops of RREQ packets from this cache to memory"
HistogramOperation Histogram
TimeFlag 1
Help "Read requests by the hops they travelled, counted at the sender (Fig. 4.2)"
EndRecord

Name "Network.RDATA_Distances"
HistogramMask #x90020008
HistogramHeaderStrings "Hops of RDATA packets from memory into this cache"
HistogramOperation Histogram
TimeFlag 1
Help "Read data by the hops it travelled, counted at the receiving cache (Figs. 2.5, 4.3)"
EndRecord

Name "Network.Read_Invalidation_Distances"
HistogramMask #x90020040
HistogramHeaderStrings "Hops of read invalidations into this cache"
HistogramOperation Histogram
TimeFlag 1
Help "Invalidations of read-only copies (INVR) by hops"
EndRecord

Name "Network.Invalidation_Distances"
HistogramMask #x900200C0
HistogramHeaderStrings "Hops of invalidations into this cache"
HistogramOperation Histogram
TimeFlag 1
Help "Invalidations of read-only and dirty copies (INVR, INVW) by hops (Figs. 5.1-5.3)"
EndRecord

; ---- latency statistics (major 7, counter 0 the accumulator) -----------
Name "Latency.Remote_Access_Latency"
CounterMasks #x71060002 #x70060002
CounterOperation Value 0 Value 1 Div 0 1
HeaderStrings "Remote cycles" "Remote accesses" "Average remote latency"
Accumulator 1
TimeFlag 1
Help "Cycles from issue to completion of the misses served remotely (Figs. 5.4-5.6)"
EndRecord

; ---- checkpoints (major 1; Appendix A.1's Proc1) -------------------------
Name "Checkpoints.Checkgr2"
CounterMasks #x10000020
CounterOperation Value 0
HeaderStrings "Checkgr2"
TimeFlag 1
Help "Classwise: every checkpoint of group 2 (Fig. 2.7)"
EndRecord

Name "Checkpoints.Checkgr2:Check2"
CounterMasks #x10001021
CounterOperation Value 0
HeaderStrings "Checkgr2:Check2"
TimeFlag 1
Help "Single: checkpoint 2 of group 2 (Fig. 2.6)"
EndRecord

Name "Checkpoints.Checkgr3"
HistogramMask #x10000030
HistogramHeaderStrings "Checkgr3"
HistogramOperation Histogram
TimeFlag 1
Help "Histogram: the checkpoints of group 3 by index (Fig. 2.8)"
EndRecord

EndOfFile
