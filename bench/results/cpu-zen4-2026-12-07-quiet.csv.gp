# Charts of the tilejit-bench run in bench/results/cpu-zen4-2026-12-07-quiet.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen4-2026-12-07-quiet.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen4-2026-12-07-quiet.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 24.4677
64 25.2433
EOD
$t0_1 << EOD
64 25.6202
EOD
$t0_2 << EOD
64 37.4794
64 35.1929
EOD
$t0_3 << EOD
64 36.4287
EOD
$t0_4 << EOD
64 21.3255
EOD
$t0_5 << EOD
64 34.4081
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
64 5.95895
64 5.9417
EOD
$t1_1 << EOD
64 7.75513
EOD
$t1_2 << EOD
64 11.5487
64 11.5566
EOD
$t1_3 << EOD
64 15.3176
EOD
$t1_4 << EOD
64 7.27102
EOD
$t1_5 << EOD
64 14.1978
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
64 8.43058
64 8.43636
EOD
$t2_1 << EOD
64 11.1945
EOD
$t2_2 << EOD
64 10.7849
64 10.5192
EOD
$t2_3 << EOD
64 21.3394
EOD
$t2_4 << EOD
64 6.36426
EOD
$t2_5 << EOD
64 11.9878
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
64 27.918
64 27.9475
EOD
$t3_1 << EOD
64 28.6463
EOD
$t3_2 << EOD
64 51.5662
64 43.0653
EOD
$t3_3 << EOD
64 52.3325
EOD
$t3_4 << EOD
64 25.2832
EOD
$t3_5 << EOD
64 44.0457
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
"cpu/sum: tilejit width-1, 1 thread" 1.0471
"cpu/sum: tilejit width-1, 2 threads" 0.971965
"cpu/sum: tilejit cooperative, 1 thread" 0.844799
"cpu/sum: tilejit cooperative, 2 threads" 0.977702
"cpu/histogram: tilejit width-1, 1 thread" 1.30143
"cpu/histogram: tilejit width-1, 2 threads" 1.32635
"cpu/histogram: tilejit cooperative, 1 thread" 1.22373
"cpu/histogram: tilejit cooperative, 2 threads" 1.22854
"cpu/compact: tilejit width-1, 1 thread" 1.32784
"cpu/compact: tilejit width-1, 2 threads" 1.97864
"cpu/compact: tilejit cooperative, 1 thread" 0.754385
"cpu/compact: tilejit cooperative, 2 threads" 1.1396
"cpu/copy: tilejit width-1, 1 thread" 1.02609
"cpu/copy: tilejit width-1, 2 threads" 1.01486
"cpu/copy: tilejit cooperative, 1 thread" 0.904669
"cpu/copy: tilejit cooperative, 2 threads" 1.02276
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
"ptx/store_doubled_thread_indices" 17.4106
"ptx/multiply_elements" 13.5821
"ptx/row_products" 10.3334
"ptx/replace_rows" 11.6433
"ptx/histogram" 13.06
"ptx/compact_values" 7.39478
"ptx/large" 1.67779
"ptx-first/store_doubled_thread_indices" 7.48563
"ptx-first/multiply_elements" 7.06194
"ptx-first/row_products" 5.73251
"ptx-first/replace_rows" 6.58047
"ptx-first/histogram" 6.55572
"ptx-first/compact_values" 4.77825
"ptx-first/large" 1.58656
"disk/store_doubled_thread_indices" 3.58735
"disk/store_doubled_thread_indices (CPU)" 10.9241
"disk/multiply_elements" 3.987
"disk/multiply_elements (CPU)" 17.0266
"disk/row_products" 4.12673
"disk/row_products (CPU)" 8.69978
"disk/replace_rows" 4.12825
"disk/replace_rows (CPU)" 10.1547
"disk/histogram" 3.95823
"disk/histogram (CPU)" 10.3092
"disk/compact_values" 4.65653
"disk/compact_values (CPU)" 9.48563
"disk/large" 8.57554
"disk/large (CPU)" 32.7152
"source/store_doubled_thread_indices" 17.6851
"source-first/store_doubled_thread_indices" 7.81912
"source/multiply_elements" 13.1018
"source-first/multiply_elements" 7.05886
"source/row_products" 10.0803
"source-first/row_products" 6.05767
"source/replace_rows" 11.6188
"source-first/replace_rows" 6.41449
"source/histogram" 12.3305
"source-first/histogram" 6.68472
"source/compact_values" 7.38641
"source-first/compact_values" 4.73077
"source/large" 1.78518
"source-first/large" 1.60259
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
