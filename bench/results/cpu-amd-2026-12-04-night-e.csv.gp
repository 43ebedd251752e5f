# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-04-night-e.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-04-night-e.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-04-night-e.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 99.196
64 21.259
EOD
$t0_1 << EOD
64 25.507
EOD
$t0_2 << EOD
4 37.6622
64 50.7307
EOD
$t0_3 << EOD
64 51.9578
EOD
$t0_4 << EOD
4 78.9152
EOD
$t0_5 << EOD
4 76.6265
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
4 6.73433
64 6.57214
EOD
$t1_1 << EOD
64 6.01961
EOD
$t1_2 << EOD
4 9.057
64 10.966
EOD
$t1_3 << EOD
64 9.1024
EOD
$t1_4 << EOD
4 5.69926
EOD
$t1_5 << EOD
4 8.73565
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
4 8.61241
64 8.35665
EOD
$t2_1 << EOD
64 10.1798
EOD
$t2_2 << EOD
4 8.4093
64 9.48966
EOD
$t2_3 << EOD
64 17.0013
EOD
$t2_4 << EOD
4 7.95639
EOD
$t2_5 << EOD
4 10.9636
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
4 98.0917
64 23.1231
EOD
$t3_1 << EOD
64 26.2458
EOD
$t3_2 << EOD
4 55.9918
64 46.7851
EOD
$t3_3 << EOD
64 50.4198
EOD
$t3_4 << EOD
4 79.1916
EOD
$t3_5 << EOD
4 60.9704
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
"cpu/sum: tilejit width-1, 1 thread" 1.19982
"cpu/sum: tilejit width-1, 2 threads" 1.02419
"cpu/sum: tilejit cooperative, 1 thread" 0.795548
"cpu/sum: tilejit cooperative, 2 threads" 2.03457
"cpu/histogram: tilejit width-1, 1 thread" 0.915928
"cpu/histogram: tilejit width-1, 2 threads" 0.830056
"cpu/histogram: tilejit cooperative, 1 thread" 0.8463
"cpu/histogram: tilejit cooperative, 2 threads" 0.964519
"cpu/compact: tilejit width-1, 1 thread" 1.21816
"cpu/compact: tilejit width-1, 2 threads" 1.79156
"cpu/compact: tilejit cooperative, 1 thread" 0.923828
"cpu/compact: tilejit cooperative, 2 threads" 1.30375
"cpu/copy: tilejit width-1, 1 thread" 1.13505
"cpu/copy: tilejit width-1, 2 threads" 1.07769
"cpu/copy: tilejit cooperative, 1 thread" 0.807322
"cpu/copy: tilejit cooperative, 2 threads" 1.08892
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
"ptx/store_doubled_thread_indices" 17.6372
"ptx/multiply_elements" 13.8944
"ptx/row_products" 9.30044
"ptx/replace_rows" 11.6983
"ptx/histogram" 14.5295
"ptx/compact_values" 7.35193
"ptx/large" 1.63364
"ptx-first/store_doubled_thread_indices" 7.31533
"ptx-first/multiply_elements" 6.61882
"ptx-first/row_products" 5.41865
"ptx-first/replace_rows" 5.751
"ptx-first/histogram" 7.36787
"ptx-first/compact_values" 4.72895
"ptx-first/large" 1.52172
"disk/store_doubled_thread_indices" 2.23247
"disk/store_doubled_thread_indices (CPU)" 7.01675
"disk/multiply_elements" 2.52488
"disk/multiply_elements (CPU)" 8.04276
"disk/row_products" 2.86354
"disk/row_products (CPU)" 6.38035
"disk/replace_rows" 2.16208
"disk/replace_rows (CPU)" 8.41055
"disk/histogram" 2.61945
"disk/histogram (CPU)" 5.70398
"disk/compact_values" 2.29744
"disk/compact_values (CPU)" 8.24874
"disk/large" 4.56333
"disk/large (CPU)" 24.3782
"source/store_doubled_thread_indices" 12.1529
"source-first/store_doubled_thread_indices" 7.07818
"source/multiply_elements" 13.6411
"source-first/multiply_elements" 4.9735
"source/row_products" 7.122
"source-first/row_products" 4.07956
"source/replace_rows" 11.019
"source-first/replace_rows" 4.99026
"source/histogram" 13.5767
"source-first/histogram" 7.87538
"source/compact_values" 7.44743
"source-first/compact_values" 4.59746
"source/large" 1.51674
"source-first/large" 1.48369
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
