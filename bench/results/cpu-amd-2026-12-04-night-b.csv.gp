# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-04-night-b.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-04-night-b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-04-night-b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 90.2408
64 23.3538
EOD
$t0_1 << EOD
64 27.3283
EOD
$t0_2 << EOD
4 30.2396
64 37.5715
EOD
$t0_3 << EOD
64 47.0762
EOD
$t0_4 << EOD
4 68.2811
EOD
$t0_5 << EOD
4 54.0953
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
4 6.72713
64 6.53069
EOD
$t1_1 << EOD
64 6.00007
EOD
$t1_2 << EOD
4 9.55051
64 10.6965
EOD
$t1_3 << EOD
64 10.5394
EOD
$t1_4 << EOD
4 5.57373
EOD
$t1_5 << EOD
4 10.3849
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
4 8.59113
64 8.39925
EOD
$t2_1 << EOD
64 10.6215
EOD
$t2_2 << EOD
4 8.70432
64 9.3775
EOD
$t2_3 << EOD
64 16.7255
EOD
$t2_4 << EOD
4 6.86278
EOD
$t2_5 << EOD
4 9.25106
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
4 97.2609
64 26.5089
EOD
$t3_1 << EOD
64 30.5317
EOD
$t3_2 << EOD
4 58.7403
64 30.2144
EOD
$t3_3 << EOD
64 34.018
EOD
$t3_4 << EOD
4 84.4532
EOD
$t3_5 << EOD
4 72.4327
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
"cpu/sum: tilejit width-1, 1 thread" 1.17019
"cpu/sum: tilejit width-1, 2 threads" 1.25298
"cpu/sum: tilejit cooperative, 1 thread" 0.756654
"cpu/sum: tilejit cooperative, 2 threads" 1.78889
"cpu/histogram: tilejit width-1, 1 thread" 0.91875
"cpu/histogram: tilejit width-1, 2 threads" 0.985314
"cpu/histogram: tilejit cooperative, 1 thread" 0.828544
"cpu/histogram: tilejit cooperative, 2 threads" 1.08737
"cpu/compact: tilejit width-1, 1 thread" 1.26457
"cpu/compact: tilejit width-1, 2 threads" 1.78357
"cpu/compact: tilejit cooperative, 1 thread" 0.798822
"cpu/compact: tilejit cooperative, 2 threads" 1.06281
"cpu/copy: tilejit width-1, 1 thread" 1.15175
"cpu/copy: tilejit width-1, 2 threads" 1.12589
"cpu/copy: tilejit cooperative, 1 thread" 0.868316
"cpu/copy: tilejit cooperative, 2 threads" 1.2331
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
"ptx/store_doubled_thread_indices" 18.9371
"ptx/multiply_elements" 13.8838
"ptx/row_products" 9.19895
"ptx/replace_rows" 11.7986
"ptx/histogram" 14.6466
"ptx/compact_values" 7.8798
"ptx/large" 1.65116
"ptx-first/store_doubled_thread_indices" 6.70823
"ptx-first/multiply_elements" 6.70758
"ptx-first/row_products" 5.8806
"ptx-first/replace_rows" 6.81667
"ptx-first/histogram" 8.29337
"ptx-first/compact_values" 4.85453
"ptx-first/large" 1.55331
"disk/store_doubled_thread_indices" 2.32837
"disk/store_doubled_thread_indices (CPU)" 6.3207
"disk/multiply_elements" 2.68743
"disk/multiply_elements (CPU)" 7.92137
"disk/row_products" 2.92866
"disk/row_products (CPU)" 6.58576
"disk/replace_rows" 2.8063
"disk/replace_rows (CPU)" 8.58914
"disk/histogram" 2.29345
"disk/histogram (CPU)" 7.1709
"disk/compact_values" 2.99746
"disk/compact_values (CPU)" 8.86087
"disk/large" 5.91486
"disk/large (CPU)" 33.2453
"source/store_doubled_thread_indices" 18.7175
"source-first/store_doubled_thread_indices" 6.79774
"source/multiply_elements" 13.7551
"source-first/multiply_elements" 7.03341
"source/row_products" 9.19159
"source-first/row_products" 6.03502
"source/replace_rows" 11.4287
"source-first/replace_rows" 7.56983
"source/histogram" 13.6596
"source-first/histogram" 7.80536
"source/compact_values" 7.62728
"source-first/compact_values" 4.78674
"source/large" 1.57174
"source-first/large" 1.33969
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
