# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07-eighth.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07-eighth.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07-eighth.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 22.727
64 23.0091
EOD
$t0_1 << EOD
64 21.9497
EOD
$t0_2 << EOD
64 32.4503
64 35.8384
EOD
$t0_3 << EOD
64 28.6861
EOD
$t0_4 << EOD
64 23.6441
EOD
$t0_5 << EOD
64 36.8047
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
64 6.41392
64 6.2506
EOD
$t1_1 << EOD
64 7.5131
EOD
$t1_2 << EOD
64 11.3531
64 10.2159
EOD
$t1_3 << EOD
64 14.4888
EOD
$t1_4 << EOD
64 6.93527
EOD
$t1_5 << EOD
64 10.812
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
64 5.821
64 7.24891
EOD
$t2_1 << EOD
64 6.26091
EOD
$t2_2 << EOD
64 6.86465
64 6.84949
EOD
$t2_3 << EOD
64 12.6475
EOD
$t2_4 << EOD
64 7.42069
EOD
$t2_5 << EOD
64 11.7353
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
64 20.4079
64 19.3805
EOD
$t3_1 << EOD
64 25.2257
EOD
$t3_2 << EOD
64 25.915
64 34.5943
EOD
$t3_3 << EOD
64 29.1128
EOD
$t3_4 << EOD
64 19.2269
EOD
$t3_5 << EOD
64 35.4337
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.965801
"cpu/sum: tilejit width-1, 2 threads" 0.884
"cpu/sum: tilejit cooperative, 1 thread" 1.0276
"cpu/sum: tilejit cooperative, 2 threads" 1.02696
"cpu/histogram: tilejit width-1, 1 thread" 1.17137
"cpu/histogram: tilejit width-1, 2 threads" 1.2762
"cpu/histogram: tilejit cooperative, 1 thread" 1.10954
"cpu/histogram: tilejit cooperative, 2 threads" 1.05835
"cpu/compact: tilejit width-1, 1 thread" 1.07557
"cpu/compact: tilejit width-1, 2 threads" 1.84241
"cpu/compact: tilejit cooperative, 1 thread" 1.0237
"cpu/compact: tilejit cooperative, 2 threads" 1.71331
"cpu/copy: tilejit width-1, 1 thread" 1.23608
"cpu/copy: tilejit width-1, 2 threads" 1.1234
"cpu/copy: tilejit cooperative, 1 thread" 0.992074
"cpu/copy: tilejit cooperative, 2 threads" 1.02426
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 19.1015
"ptx/multiply_elements" 13.0202
"ptx/row_products" 10.3012
"ptx/replace_rows" 12.2667
"ptx/histogram" 12.8422
"ptx/compact_values" 6.20312
"ptx/large" 1.76941
"ptx-first/store_doubled_thread_indices" 6.34768
"ptx-first/multiply_elements" 10.8589
"ptx-first/row_products" 5.30584
"ptx-first/replace_rows" 7.0989
"ptx-first/histogram" 4.96932
"ptx-first/compact_values" 5.44418
"ptx-first/large" 2.00345
"disk/store_doubled_thread_indices" 4.40516
"disk/store_doubled_thread_indices (CPU)" 10.5974
"disk/multiply_elements" 3.28587
"disk/multiply_elements (CPU)" 13.953
"disk/row_products" 3.6023
"disk/row_products (CPU)" 8.70732
"disk/replace_rows" 2.8025
"disk/replace_rows (CPU)" 9.11287
"disk/histogram" 4.50859
"disk/histogram (CPU)" 10.8159
"disk/compact_values" 4.73769
"disk/compact_values (CPU)" 10.4545
"disk/large" 7.76245
"disk/large (CPU)" 35.2902
"source/store_doubled_thread_indices" 20.7585
"source-first/store_doubled_thread_indices" 6.62981
"source/multiply_elements" 8.12257
"source-first/multiply_elements" 7.02605
"source/row_products" 9.8174
"source-first/row_products" 4.80502
"source/replace_rows" 17.7285
"source-first/replace_rows" 6.56722
"source/histogram" 11.5387
"source-first/histogram" 5.47156
"source/compact_values" 7.23908
"source-first/compact_values" 5.96149
"source/large" 1.56222
"source-first/large" 1.74066
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
